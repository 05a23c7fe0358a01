import type { UserConfig } from 'vitepress'
import { buildMemoryPlugin } from './build-memory-plugin.js'
import { clientDepsPlugin } from './client-deps-plugin.js'
import { devApiPlugin } from './dev-api-plugin.js'
import { grayMatterYaml, safeEngines } from '../server/front-matter-engines.js'
import { hardenPlugin } from './harden/harden-plugin.js'
import { markdownGuard, type SourceContext } from './harden/markdown-guard.js'
import { knowledgePlugin } from './knowledge-plugin.js'
import { liveSearchPlugin } from './local-search/live-search-plugin.js'
import { knowledgeReadyPlugin } from './knowledge-ready-plugin.js'
import { leanSidebarPlugin } from './lean-sidebar-plugin.js'
import { KnowledgeService } from './knowledge-service.js'
import { clientBundlePlugin } from './client-bundle.js'
import { wikiLinkPlugin } from './markdown/wiki-link-rule.js'
import { AGENT_CONTEXT_WINDOWS_DEFINE, AGENT_MAX_STEPS_DEFINE, BACKLINKS_DEFINE, resolveOptions, type MetaBlogOptions } from './options.js'
import { withCjkTokenizer } from '../server/knowledge/local-search-options.js'

export type { MetaBlogOptions } from './options.js'
export type * from './protocol.js'

type ConfigInput<T> = T | (() => T | Promise<T>)

function extend<T extends UserConfig>(config: T, options: MetaBlogOptions): T {
  const resolved = resolveOptions(options)
  const knowledge = new KnowledgeService({ sidebar: resolved.sidebar })
  const markdown = config.markdown ?? {}
  const vite = config.vite ?? {}
  const source: SourceContext = {}
  const grayMatterOptions = markdown.frontmatter?.grayMatterOptions ?? {}
  return {
    ...config,
    // Only where the author turned VitePress's local search on.
    ...(config.themeConfig?.search ? { themeConfig: { ...config.themeConfig, search: withCjkTokenizer(config.themeConfig.search) } } : {}),
    markdown: {
      ...markdown,
      // In dev a page re-renders when a page or attachment it links to comes or goes; VitePress's render cache would serve the old links.
      cache: markdown.cache ?? false,
      // gray-matter's other engines run the page as code: VitePress's documented option makes them refuse.
      // YAML goes to VitePress's own (bundled, loaded) parser, once the harden plugin found it.
      frontmatter: {
        ...markdown.frontmatter,
        grayMatterOptions: { ...grayMatterOptions, engines: { ...grayMatterOptions.engines, ...safeEngines(() => source.yaml ?? grayMatterYaml()) } },
      },
      async config(md) {
        // VitePress calls this without awaiting it: the guard goes in before anything can render.
        md.use(markdownGuard(source))
        await markdown.config?.(md)
        md.use(wikiLinkPlugin, { resolve: knowledge.resolve, resolveAttachment: knowledge.resolveAttachment, fragmentId: knowledge.fragmentId, base: config.base })
      },
    },
    vite: {
      ...vite,
      // The dev-only API applies to `serve` alone; the knowledge layer serves dev and build.
      plugins: [...(vite.plugins ?? []), hardenPlugin(source), devApiPlugin(resolved, knowledge), knowledgePlugin(knowledge), clientDepsPlugin(), liveSearchPlugin(), knowledgeReadyPlugin(knowledge), clientBundlePlugin(), leanSidebarPlugin(), buildMemoryPlugin()],
      define: {
        ...vite.define,
        [AGENT_MAX_STEPS_DEFINE]: JSON.stringify(resolved.agent.maxSteps),
        [AGENT_CONTEXT_WINDOWS_DEFINE]: JSON.stringify(resolved.agent.contextWindows),
        [BACKLINKS_DEFINE]: JSON.stringify(resolved.backlinks),
      },
    },
  }
}

/**
 * Adds MetaBlog to a VitePress config, keeping everything the user configured.
 * Accepts an object, or a (possibly async) function returning one, like VitePress itself.
 */
export function withMetaBlog<T extends UserConfig>(config: T, options?: MetaBlogOptions): T
export function withMetaBlog<T extends UserConfig>(config: () => T | Promise<T>, options?: MetaBlogOptions): () => Promise<T>
export function withMetaBlog<T extends UserConfig>(config: ConfigInput<T>, options: MetaBlogOptions = {}): T | (() => Promise<T>) {
  if (typeof config === 'function') return async () => extend(await config(), options)
  return extend(config, options)
}
