// VitePress 1.6's local search never indexes a page created while `vitepress dev` runs, keeps deleted
// ones, and throws "MiniSearch: duplicate ID" when a page is edited (vuejs/vitepress#4251). In dev,
// this plugin serves the search index instead and keeps it in step with every Markdown file change.
import path from 'node:path'
import fs from 'node:fs/promises'
import MiniSearch from 'minisearch'
import { createMarkdownRenderer, type MarkdownRenderer, type SiteConfig } from 'vitepress'
import type { LocalSearchConfig } from '../../server/knowledge/local-search-options.js'
import type { Plugin, ViteDevServer } from '../vite-types.js'
import { hashContent } from '../../server/hash.js'
import { SettleTimers } from '../settle-timers.js'
import { pageSections } from './page-sections.js'

const INDEX_ID = '/@localSearchIndex'
const VITEPRESS_PLUGIN = 'vitepress:local-search'

interface SearchDocument {
  id: string
  title: string
  titles: string[]
  text: string
}

export function liveSearchPlugin(): Plugin {
  let site: SiteConfig | undefined
  let search: LocalSearchConfig['options'] = {}
  let renderer: Promise<MarkdownRenderer> | undefined
  let server: ViteDevServer | undefined
  const indexes = new Map<string, MiniSearch<SearchDocument>>()
  /** The ids each page added, to take them out again when it changes, and the hash of what was indexed. */
  const idsByPage = new Map<string, { locale: string; ids: string[]; hash: string }>()
  let queue = Promise.resolve()
  /** Whether the index was asked for: until a search box opens, nothing is rendered for it. */
  let started = false

  function indexOf(locale: string): MiniSearch<SearchDocument> {
    let index = indexes.get(locale)
    if (!index) {
      index = new MiniSearch<SearchDocument>({ fields: ['title', 'titles', 'text'], storeFields: ['title', 'titles'], ...search?.miniSearch?.options })
      indexes.set(locale, index)
    }
    return index
  }

  function localeOf(page: string): string {
    const locales = Object.keys(site!.site.locales ?? {}).filter((key) => key !== 'root')
    return locales.find((key) => page.startsWith(`${key.replace(/^\/|\/$/g, '')}/`)) ?? 'root'
  }

  /** The page's route as VitePress's local search names it. */
  function routeOf(page: string): string {
    const rewritten = site!.rewrites.map[page] ?? page
    const route = path.posix.join(site!.site.base, rewritten).replace(/(^|\/)index\.md$/, '$1')
    return route.replace(/\.md$/, site!.cleanUrls ? '' : '.html')
  }

  /** Indexes the page as it is on disk; false when that is what is indexed already. */
  async function reindex(page: string): Promise<boolean> {
    const file = path.join(site!.srcDir, page)
    const source = await fs.readFile(file, 'utf8').catch(() => null)
    const hash = source === null ? null : hashContent(source)
    const old = idsByPage.get(page)
    if ((old?.hash ?? null) === hash) return false
    if (old) for (const id of old.ids) indexOf(old.locale).discard(id)
    idsByPage.delete(page)
    if (source === null || hash === null) return true
    const md = await (renderer ??= createMarkdownRenderer(site!.srcDir, site!.markdown, site!.site.base, site!.logger))
    const env: Record<string, any> = { path: file, relativePath: page, cleanUrls: site!.cleanUrls }
    const html = md.render(source, env)
    const locale = localeOf(page)
    if (env.frontmatter?.search === false) {
      idsByPage.set(page, { locale, ids: [], hash })
      return true
    }
    const route = routeOf(page)
    const documents = pageSections(html).map((section) => ({
      id: section.anchor ? `${route}#${section.anchor}` : route,
      title: section.titles.at(-1)!,
      titles: section.titles.slice(0, -1),
      text: section.text,
    }))
    // Two headings with the same anchor make one entry, as an id can be indexed once.
    const unique = [...new Map(documents.map((document) => [document.id, document])).values()]
    indexOf(locale).addAll(unique)
    idsByPage.set(page, { locale, ids: unique.map((document) => document.id), hash })
    return true
  }

  /** Re-renders changed pages one at a time, then tells the open search boxes to reload the index. */
  function update(page: string): Promise<void> {
    queue = queue.then(async () => {
      try {
        if (await reindex(page)) notify()
      } catch (error) {
        site?.logger.warn(`MetaBlog could not index ${page} for search: ${String(error)}`)
        notify()
      }
    })
    return queue
  }

  /**
   * The first request for the index builds it, page by page (each read yields to other requests):
   * a 10,000-page blog's dev server starts, and paints, without rendering every page for a search box nobody opened.
   */
  function indexAll(): Promise<void> {
    if (started) return queue
    started = true
    queue = queue.then(async () => {
      for (const page of site!.pages) await reindex(page).catch((error: unknown) => site?.logger.warn(`MetaBlog could not index ${page} for search: ${String(error)}`))
    })
    return queue
  }

  function notify(): void {
    if (!server) return
    const timestamp = Date.now()
    // The locale modules too: Vite would otherwise serve their first transform again.
    for (const [id, module] of server.moduleGraph.idToModuleMap) {
      if (id.startsWith(INDEX_ID)) server.moduleGraph.invalidateModule(module, new Set(), timestamp, true)
    }
    const module = server.moduleGraph.getModuleById(INDEX_ID)
    if (!module) return
    server.ws.send({ type: 'update', updates: [{ type: 'js-update', path: module.url, acceptedPath: module.url, timestamp }] })
  }

  function pageOf(file: string): string | null {
    const relative = path.relative(site!.srcDir, file).split(path.sep).join('/')
    if (!relative.endsWith('.md') || relative.startsWith('..') || relative.split('/').some((part) => part.startsWith('.') || part === 'node_modules')) return null
    return relative
  }

  return {
    name: 'metablog:live-search',
    apply: 'serve',
    enforce: 'pre',
    configResolved(config) {
      const resolved = (config as { vitepress?: SiteConfig }).vitepress
      const searchConfig = resolved?.site.themeConfig?.search as LocalSearchConfig | undefined
      if (!resolved || searchConfig?.provider !== 'local') return
      site = resolved
      search = searchConfig.options ?? {}
      // Ours replaces VitePress's dev index: its scan would be wasted and its hot update throws on edits.
      const vitepressSearch = config.plugins.find((plugin) => plugin.name === VITEPRESS_PLUGIN) as Plugin | undefined
      if (vitepressSearch) {
        delete vitepressSearch.configureServer
        delete vitepressSearch.handleHotUpdate
      }
    },
    configureServer(devServer) {
      if (!site) return
      server = devServer
      // Each changed page is read once more when its events settle (see SettleTimers).
      const settling = new SettleTimers()
      devServer.httpServer?.once('close', () => settling.close())
      const onFile = (file: string) => {
        const page = pageOf(file)
        // Before the first build, the change is read when it runs.
        if (!page || !started) return
        void update(page)
        settling.poke(page, () => void update(page))
      }
      devServer.watcher.on('add', onFile)
      devServer.watcher.on('change', onFile)
      devServer.watcher.on('unlink', onFile)
    },
    async load(id) {
      if (!site || !id.startsWith(INDEX_ID)) return undefined
      await indexAll()
      if (id === INDEX_ID) {
        const locales = new Set(['root', ...Object.keys(site.site.locales ?? {}), ...indexes.keys()])
        return `export default {${[...locales].map((locale) => `${JSON.stringify(locale)}: () => import('@localSearchIndex${locale}')`).join(',')}}`
      }
      const index = indexes.get(id.slice(INDEX_ID.length))
      return `export default ${JSON.stringify(JSON.stringify(index ?? {}))}`
    },
  }
}
