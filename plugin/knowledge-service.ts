import type { DefaultTheme, SiteConfig } from 'vitepress'
import { fragmentId } from '../server/knowledge/heading-ids.js'
import type { IndexUpdate, KnowledgeIndex } from '../server/knowledge/knowledge-index.js'
import { mergeSidebar } from '../server/knowledge/sidebar-merge.js'
import type { DevActivity } from './dev-activity.js'
import { sendEvent } from './events.js'
import type { WikiLinkTarget } from './markdown/wiki-link-rule.js'
import type { PageChange } from './page-change-feed.js'
import type { SidebarUpdatedPayload } from './protocol.js'
import { RESOLVED_GRAPH_MODULE_ID, SITE_DATA_MODULE_ID } from './virtual-modules.js'
import type { ViteDevServer } from './vite-types.js'

/**
 * The index's code (a chunk of its own in the bundle) is loaded with the first load, not with the
 * config. In dev a big blog's pages are read and parsed on a thread of their own where the package
 * has one; if that thread fails, the server's thread reads them (and reports what it cannot read).
 */
async function loadIndex(sourceDir: string, pause?: () => Promise<void>): Promise<KnowledgeIndex> {
  const [{ KnowledgeIndex }, { listSiteFiles }, { OFF_THREAD_PAGES, parseOffThread }] = await Promise.all([
    import('../server/knowledge/knowledge-index.js'),
    import('../server/knowledge/load-pages.js'),
    import('../server/knowledge/parse-off-thread.js'),
  ])
  const files = await listSiteFiles(sourceDir)
  const parsed = pause && files.pages.length >= OFF_THREAD_PAGES ? await parseOffThread(sourceDir, files.pages)?.catch(() => null) : null
  return parsed ? KnowledgeIndex.fromParsed(sourceDir, files, parsed, pause) : KnowledgeIndex.loadListed(sourceDir, files, pause)
}

/**
 * The blog's one knowledge index, shared by the markdown rule, the API, the sidebar and the graph
 * module of one withMetaBlog() call. Loaded once per source folder; kept live in dev.
 */
export class KnowledgeService {
  /** The last index loaded; read live by the markdown rule (VitePress keeps one markdown-it instance). */
  private loaded: KnowledgeIndex | null = null
  private loading: Promise<KnowledgeIndex> | null = null
  /** In dev, the server's requests, which the loads wait for (see `deferTo`); null: they start at once. */
  private activity: DevActivity | null = null
  private searchStarted = false
  private adopted: Promise<void> = Promise.resolve()
  private isReady = true
  private loadedFor: string | null = null
  private site: SiteConfig | null = null
  private userSidebar: DefaultTheme.Sidebar | undefined
  private generatedSections: DefaultTheme.SidebarMulti | undefined
  private includeDrafts = true

  constructor(private readonly options: { sidebar: boolean }) {}

  // Before the first load nothing resolves, as with an empty index (dev pages wait for `ready`).
  readonly resolve = (target: string, fromPath: string): WikiLinkTarget | null => this.loaded?.resolve(target, fromPath) ?? null
  readonly resolveAttachment = (target: string, fromPath: string): string | null => this.loaded?.resolveAttachment(target, fromPath) ?? null
  readonly fragmentId = (pagePath: string, fragment: string): string => this.loaded?.fragmentId(pagePath, fragment) ?? fragmentId([], fragment)

  /** The index, once loaded: read it after `ready` (or a build's `load`). */
  get index(): KnowledgeIndex {
    if (!this.loaded) throw new Error('[metablog] the knowledge index was read before it was loaded; await `ready` first.')
    return this.loaded
  }

  /** The site's source folder, once loaded. */
  get sourceDir(): string | null {
    return this.site?.srcDir ?? null
  }

  /** The site's language (VitePress's `lang`), once loaded. */
  get siteLang(): string | undefined {
    return this.site?.site.lang
  }

  /** The site's output folder, once loaded. */
  get outDir(): string | null {
    return this.site?.outDir ?? null
  }

  /**
   * Builds the index for a site (once per source folder) and sets the generated sidebar. A build
   * waits for it; in dev it resolves at once, so the server listens meanwhile, and whatever reads
   * the index (pages, site data, the graph, the API, live updates) waits for `ready` instead.
   */
  load(site: SiteConfig, mode: 'serve' | 'build'): Promise<void> {
    this.useSite(site)
    if (!this.loading || this.loadedFor !== site.srcDir) {
      this.loadedFor = site.srcDir
      const activity = mode === 'serve' ? this.activity : null
      const held = activity?.loadMayStart
      this.loading = Promise.resolve(held)
        // The build gives the event loop a turn between slices: in dev requests are answered meanwhile,
        // and it still ends before the browser asks for the page. (Giving way to every request in flight
        // instead left most of a 10,000-page build for after that ask: the page waited 0.5-1.1 s.)
        .then(() => loadIndex(site.srcDir, activity ? () => activity.turn() : undefined))
        .then((index) => {
          this.loaded = index
          this.searchStarted = false
          // In dev, build the search index in slices once the first page is out and the server has a
          // lull; a search meanwhile starts it and answers from what is indexed.
          if (mode === 'serve') void this.searchCanStart().then(() => this.startSearch())
          return index
        })
    }
    this.isReady = false
    const adopted = (this.adopted = this.loading.then(() => {
      this.adopt(site, mode)
      // A later load (a config restart) owns the flag from then on.
      if (this.adopted === adopted) this.isReady = true
    }))
    if (mode === 'build') return this.adopted
    this.adopted.catch((error: Error) => site.logger.error(`[metablog] could not build the knowledge index: ${error.message}`))
    return Promise.resolve()
  }

  /**
   * The generated sidebar, one full section per top-level folder, when the author has none of their
   * own: each page carries its own section (windowed) in its page data, never the site data.
   */
  get sidebarSections(): DefaultTheme.SidebarMulti | undefined {
    return this.generatedSections
  }

  /** Resolves once the index of the loaded site is built and its sidebar set; asking for it starts a deferred load. */
  get ready(): Promise<void> {
    this.activity?.allowLoad()
    return this.adopted
  }

  /** The built index, or null while it is still being built. */
  get builtIndex(): KnowledgeIndex | null {
    return this.isReady ? this.loaded : null
  }

  /** Whether VitePress's site data depends on the index: only when the author's own sidebar gets the new pages. */
  get shapesSiteData(): boolean {
    return this.options.sidebar && this.userSidebar !== undefined
  }

  /** In dev, runs `work` ahead of the index's build, whose slices wait for it (see DevActivity.foreground); a request waits for it. */
  ahead<T>(work: () => Promise<T>): Promise<T> {
    return this.activity ? this.activity.foreground(work()) : work()
  }

  /** In dev, called before `load`: the index and the search index load when `activity` lets them (see DevActivity). */
  deferTo(activity: DevActivity): void {
    if (!this.loading) this.activity = activity
  }

  /**
   * In dev, starts the search index's background build if it has not started (a search is about to
   * be answered, or the server has a lull), so that `searchNow` never builds it all at once.
   */
  startSearch(): void {
    const index = this.builtIndex
    if (!index || this.searchStarted) return
    this.searchStarted = true
    const activity = this.activity
    index.prepareSearch(activity ? () => activity.quiet() : undefined).catch((error: Error) => console.warn(`[metablog] could not prepare search: ${error.message}`))
  }

  /** In dev, once the first page is out and the server had a lull (at once when nothing is deferred): background work may start. */
  afterFirstPage(): Promise<void> {
    return this.activity?.afterFirstPage() ?? Promise.resolve()
  }

  /** In dev, once the first page module is sent (at once when nothing is deferred): the browser has what it paints. */
  firstPageSent(): Promise<void> {
    return this.activity?.firstPage ?? Promise.resolve()
  }

  /** When the search index's background build starts in dev: after the index, and after the first page if deferred. */
  private async searchCanStart(): Promise<void> {
    await this.adopted.catch(() => undefined)
    await this.afterFirstPage()
  }

  /** In dev: update the index for a changed page, then refresh what depends on it, without a restart. */
  async apply(change: PageChange, server: ViteDevServer): Promise<void> {
    await this.ready
    // A turn of its own: requests waiting since the page was read and hashed are answered first.
    await new Promise((resolve) => setImmediate(resolve))
    const update = change.content === null ? this.index.remove(change.path) : this.index.upsert(change.path, change.content)
    await this.refresh(update, [change.path], server)
  }

  /** In dev: an attachment file came or went; pages embedding it re-render, the graph's unresolved list changes. */
  async applyAttachment(path: string, present: boolean, server: ViteDevServer): Promise<void> {
    await this.ready
    await this.refresh(this.index.attachmentChanged(path, present), [path], server)
  }

  private async refresh(update: IndexUpdate, paths: string[], server: ViteDevServer): Promise<void> {
    const moduleGraph = server.moduleGraph
    const sidebar = update.sidebarChanged ? this.refreshSidebar(paths) : null
    if (sidebar) {
      // The page patches its sidebar from the event; what a full load reads is only marked stale.
      sendEvent(server, 'metablog:sidebar-updated', { paths, ...sidebar })
      this.markSidebarStale(sidebar, server)
    }
    if (update.graphChanged || update.backlinksChanged.length > 0) {
      const graph = moduleGraph.getModuleById(RESOLVED_GRAPH_MODULE_ID)
      if (graph) moduleGraph.invalidateModule(graph)
      sendEvent(server, 'metablog:graph-updated', { paths: update.affected })
    }
    // Pages whose links now lead elsewhere render differently though their own file did not change.
    for (const path of update.relinked) {
      for (const module of moduleGraph.getModulesByFile(`${this.site?.srcDir}/${path}`) ?? []) await server.reloadModule(module)
    }
  }

  /** Known at once: the folders, and the author's own sidebar before the generated one replaces it. */
  private useSite(site: SiteConfig): void {
    if (this.site === site) return
    this.site = site
    this.userSidebar = site.site.themeConfig?.sidebar
  }

  private adopt(site: SiteConfig, mode: 'serve' | 'build'): void {
    this.useSite(site)
    this.includeDrafts = mode === 'serve'
    this.refreshSidebar()
  }

  /**
   * Sets the sidebar: the author's own, merged, in VitePress's site data; or the generated sections,
   * kept here for pages to carry. With `paths`, only the sections of their top-level folders are
   * rebuilt. Returns what changed, for the page to patch, or null.
   */
  private refreshSidebar(paths?: string[]): SidebarChange | null {
    if (!this.options.sidebar || !this.site) return null
    const options = { includeDrafts: this.includeDrafts }
    if (this.userSidebar !== undefined) {
      // Theirs: kept, with new pages added to their groups, and sent whole.
      this.generatedSections = undefined
      const themeConfig = (this.site.site.themeConfig ??= {})
      const next = mergeSidebar(this.index.sidebar(options), this.userSidebar)
      if (JSON.stringify(next) === JSON.stringify(themeConfig.sidebar)) return null
      themeConfig.sidebar = next
      return { sidebar: next }
    }
    // None of the author's: one section per top-level folder, and a change touches only its folders' sections.
    const previous = this.generatedSections
    const before: DefaultTheme.SidebarMulti = previous ?? {}
    let next: DefaultTheme.SidebarMulti
    let keys: string[]
    if (paths && previous !== undefined) {
      const folders = new Set(paths.flatMap((path) => (path.includes('/') ? [path.slice(0, path.indexOf('/'))] : [])))
      const rebuilt = this.index.sidebarSectionsOf(folders, options)
      keys = [...folders].map((folder) => `/${folder}/`)
      // Sections keep their order; a folder that came or went re-sorts them, so that rebuilds them all.
      next = keys.every((key) => key in rebuilt === key in before) ? { ...before, ...rebuilt } : this.index.sidebarSections(options)
    } else {
      next = this.index.sidebarSections(options)
      keys = [...new Set([...Object.keys(before), ...Object.keys(next)])]
    }
    const sections: Record<string, DefaultTheme.SidebarItem[] | null> = {}
    for (const key of keys) {
      const section = (next[key] as DefaultTheme.SidebarItem[] | undefined) ?? null
      if (JSON.stringify(section) !== JSON.stringify(before[key] ?? null)) sections[key] = section
    }
    if (previous !== undefined && Object.keys(sections).length === 0) return null
    this.generatedSections = next
    return { sections }
  }

  /** In dev, after a sidebar change: a page loaded afresh must not get its old section from Vite's module cache. */
  private markSidebarStale(change: SidebarChange, server: ViteDevServer): void {
    const moduleGraph = server.moduleGraph
    if (change.sidebar !== undefined) {
      const siteData = moduleGraph.getModuleById(SITE_DATA_MODULE_ID)
      if (siteData) moduleGraph.invalidateModule(siteData)
    }
    const folders = Object.keys(change.sections ?? {}).map((key) => `${this.site?.srcDir}${key}`)
    if (folders.length === 0) return
    // Only the pages loaded so far have a module to mark: no walk over every page of the blog.
    for (const [file, modules] of moduleGraph.fileToModulesMap) {
      if (!file.endsWith('.md') || !folders.some((folder) => file.startsWith(folder))) continue
      for (const module of modules) moduleGraph.invalidateModule(module)
    }
  }
}

/** What the page needs to bring its sidebar up to date (see SidebarUpdatedPayload). */
type SidebarChange = Pick<SidebarUpdatedPayload, 'sections' | 'sidebar'>
