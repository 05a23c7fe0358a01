import type { DefaultTheme, SiteConfig } from 'vitepress'
import { KnowledgeIndex, type IndexUpdate } from '../server/knowledge/knowledge-index.js'
import { mergeSidebar } from '../server/knowledge/sidebar-merge.js'
import { sendEvent } from './events.js'
import type { WikiLinkTarget } from './markdown/wiki-link-rule.js'
import type { PageChange } from './page-change-feed.js'
import type { SidebarUpdatedPayload } from './protocol.js'
import { RESOLVED_GRAPH_MODULE_ID, SITE_DATA_MODULE_ID } from './virtual-modules.js'
import type { ViteDevServer } from './vite-types.js'

/** Background indexing waits while requests are answered, and this long after the last one ends... */
const QUIET_MS = 20
/** ...but never longer than this, so a busy server still gets its search index. */
const MAX_QUIET_WAIT_MS = 250

/**
 * The blog's one knowledge index, shared by the markdown rule, the API, the sidebar and the graph
 * module of one withMetaBlog() call. Loaded once per source folder; kept live in dev.
 */
export class KnowledgeService {
  /** Read live by the markdown rule: VitePress keeps one markdown-it instance. */
  index = new KnowledgeIndex()
  private loading: Promise<KnowledgeIndex> | null = null
  private adopted: Promise<void> = Promise.resolve()
  private isReady = true
  private loadedFor: string | null = null
  private site: SiteConfig | null = null
  private userSidebar: DefaultTheme.Sidebar | undefined
  private generatedSections: DefaultTheme.SidebarMulti | undefined
  private includeDrafts = true
  private requestsInFlight = 0
  private lastRequestAt = 0
  /** Background indexing waits for this before its next slice (see giveWay). */
  private priority: Promise<void> | null = null

  constructor(private readonly options: { sidebar: boolean }) {}

  readonly resolve = (target: string, fromPath: string): WikiLinkTarget | null => this.index.resolve(target, fromPath)
  readonly resolveAttachment = (target: string, fromPath: string): string | null => this.index.resolveAttachment(target, fromPath)
  readonly fragmentId = (pagePath: string, fragment: string): string => this.index.fragmentId(pagePath, fragment)

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
      this.loading = KnowledgeIndex.load(site.srcDir, mode === 'serve' ? () => this.pause() : undefined).then((index) => {
        this.index = index
        // In dev, build the search index in slices now, giving way while the server answers requests
        // (the first page loads first); a search meanwhile answers from what is indexed.
        if (mode === 'serve') index.prepareSearch(() => this.quiet()).catch((error: Error) => console.warn(`[metablog] could not prepare search: ${error.message}`))
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

  /** Resolves once the index of the loaded site is built and its sidebar set. */
  get ready(): Promise<void> {
    return this.adopted
  }

  /** The built index, or null while it is still being built. */
  get builtIndex(): KnowledgeIndex | null {
    return this.isReady ? this.index : null
  }

  /**
   * In dev, called when the server starts answering a request; call what it returns when the answer
   * is done. Background indexing gives way meanwhile: a slice between two steps of a request delays it.
   */
  requestStarted(): () => void {
    this.requestsInFlight++
    let done = false
    return () => {
      if (done) return
      done = true
      this.requestsInFlight--
      this.lastRequestAt = performance.now()
    }
  }

  /**
   * In dev: background indexing (the knowledge index, then the search index) holds back between its
   * slices until `work` is done. Loading modules (the dev API, right after listen) takes a turn of the
   * event loop per file read, and would otherwise get one turn per slice: seconds on a big blog.
   */
  giveWay(work: Promise<unknown>): void {
    const settled = work.then(
      () => undefined,
      () => undefined,
    )
    this.priority = settled
    void settled.then(() => {
      if (this.priority === settled) this.priority = null
    })
  }

  /** Between two slices of the index build: after any work given way to, and a turn of the event loop. */
  private async pause(): Promise<void> {
    if (this.priority) await this.priority
    await new Promise((resolve) => setImmediate(resolve))
  }

  /** Resolves once no request is being answered and none ended just now, or after a bounded wait, so indexing still progresses. */
  private async quiet(): Promise<void> {
    if (this.priority) await this.priority
    const started = performance.now()
    const busy = () => this.requestsInFlight > 0 || performance.now() - this.lastRequestAt < QUIET_MS
    while (busy() && performance.now() - started < MAX_QUIET_WAIT_MS) await new Promise((resolve) => setTimeout(resolve, QUIET_MS))
    await new Promise((resolve) => setImmediate(resolve))
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
