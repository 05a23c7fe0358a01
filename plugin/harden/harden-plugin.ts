import type { SiteConfig } from 'vitepress'
import type { Plugin } from '../vite-types.js'
import { hardenBundledMatter } from './front-matter-engines.js'
import { confineIncludes } from './includes.js'
import type { SourceContext } from './markdown-guard.js'

/**
 * Hardens VitePress for every page, whoever wrote it: YAML-only front matter everywhere VitePress
 * parses it, includes confined to the source folder, and a dev server that answers only its own origin.
 */
export function hardenPlugin(context: SourceContext): Plugin {
  let authorCors = false
  return {
    name: 'metablog:harden',
    // Before VitePress's own plugin, which expands includes from the raw page source.
    enforce: 'pre',
    config(config) {
      authorCors = config.server?.cors !== undefined
      // Vite 5's default CORS lets any other localhost port read the dev page, which holds the API token.
      // The page and its scripts are same-origin, so no CORS header is needed at all.
      return authorCors ? undefined : { server: { cors: false } }
    },
    async configResolved(config) {
      const site = (config as { vitepress?: SiteConfig }).vitepress
      if (!site) return
      context.sourceDir = site.srcDir
      context.yaml = (await hardenBundledMatter(site.root)) ?? undefined
      if (!context.yaml) {
        config.logger.warn('[metablog] could not find the gray-matter VitePress bundles: includes, content loaders and the sitemap parse front matter unguarded.')
      }
      if (authorCors && config.command === 'serve') {
        config.logger.warn('[metablog] vite.server.cors is set in your config and kept: any origin it allows can read the dev page, which holds the MetaBlog API token.')
      }
    },
    transform(code, id) {
      const sourceDir = context.sourceDir
      if (!sourceDir || !id.endsWith('.md')) return undefined
      const confined = confineIncludes(code, id, sourceDir)
      if (confined.refused.length === 0) return undefined
      for (const { spec, reason } of confined.refused) this.warn(`refused the include "${spec}": ${reason}`)
      return { code: confined.source, map: null }
    },
  }
}
