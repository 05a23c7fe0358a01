import type { DefaultTheme, SiteConfig } from 'vitepress'
import { KnowledgeIndex, type IndexUpdate } from '../server/knowledge/knowledge-index.js'
import { mergeSidebar } from '../server/knowledge/sidebar-merge.js'
import { sendEvent } from './events.js'
import type { WikiLinkTarget } from './markdown/wiki-link-rule.js'
import type { PageChange } from './page-change-feed.js'
import { RESOLVED_GRAPH_MODULE_ID, SITE_DATA_MODULE_ID } from './virtual-modules.js'
import type { ViteDevServer } from './vite-types.js'

/**
 * The blog's one knowledge index, shared by the markdown rule, the API, the sidebar and the graph
 * module of one withMetaBlog() call. Loaded once per source folder; kept live in dev.
 */
export class KnowledgeService {
  /** Read live by the markdown rule: VitePress keeps one markdown-it instance. */
  index = new KnowledgeIndex()
  private loading: Promise<KnowledgeIndex> | null = null
  private loadedFor: string | null = null
  private site: SiteConfig | null = null
  private userSidebar: DefaultTheme.Sidebar | undefined
  private includeDrafts = true

  constructor(private readonly options: { sidebar: boolean }) {}

  readonly resolve = (target: string, fromPath: string): WikiLinkTarget | null => this.index.resolve(target, fromPath)
  readonly resolveAttachment = (target: string, fromPath: string): string | null => this.index.resolveAttachment(target, fromPath)
  readonly fragmentId = (pagePath: string, fragment: string): string => this.index.fragmentId(pagePath, fragment)

  /** The site's source folder, once loaded. */
  get sourceDir(): string | null {
    return this.site?.srcDir ?? null
  }

  /** The site's output folder, once loaded. */
  get outDir(): string | null {
    return this.site?.outDir ?? null
  }

  /** Builds the index for a site (once per source folder) and sets the generated sidebar. */
  load(site: SiteConfig, mode: 'serve' | 'build'): Promise<KnowledgeIndex> {
    if (this.loading && this.loadedFor === site.srcDir) {
      this.adopt(site, mode)
      return this.loading
    }
    this.loadedFor = site.srcDir
    this.loading = KnowledgeIndex.load(site.srcDir).then((index) => {
      this.index = index
      this.adopt(site, mode)
      // In dev, build the search index in slices now, so the first GET /search does not block the server.
      if (mode === 'serve') index.prepareSearch().catch((error: Error) => console.warn(`[metablog] could not prepare search: ${error.message}`))
      return index
    })
    return this.loading
  }

  /** In dev: update the index for a changed page, then refresh what depends on it, without a restart. */
  async apply(change: PageChange, server: ViteDevServer): Promise<void> {
    // A turn of its own: requests waiting since the page was read and hashed are answered first.
    await new Promise((resolve) => setImmediate(resolve))
    const update = change.content === null ? this.index.remove(change.path) : this.index.upsert(change.path, change.content)
    await this.refresh(update, [change.path], server)
  }

  /** In dev: an attachment file came or went; pages embedding it re-render, the graph's unresolved list changes. */
  async applyAttachment(path: string, present: boolean, server: ViteDevServer): Promise<void> {
    await this.refresh(this.index.attachmentChanged(path, present), [path], server)
  }

  private async refresh(update: IndexUpdate, paths: string[], server: ViteDevServer): Promise<void> {
    const moduleGraph = server.moduleGraph
    if (update.sidebarChanged && this.refreshSidebar()) {
      const siteData = moduleGraph.getModuleById(SITE_DATA_MODULE_ID)
      if (siteData) await server.reloadModule(siteData)
      sendEvent(server, 'metablog:sidebar-updated', { paths })
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

  /** The graph module's source: build-time data for the reading features. A build leaves drafts out, as the sidebar does. */
  graphModule(): string {
    return `export default ${JSON.stringify(this.index.graph({ includeDrafts: this.includeDrafts }))}`
  }

  private adopt(site: SiteConfig, mode: 'serve' | 'build'): void {
    if (this.site !== site) {
      this.site = site
      this.userSidebar = site.site.themeConfig?.sidebar
    }
    this.includeDrafts = mode === 'serve'
    this.refreshSidebar()
  }

  /** Writes the merged sidebar into VitePress's site data; false when it did not change. */
  private refreshSidebar(): boolean {
    if (!this.options.sidebar || !this.site) return false
    const themeConfig = (this.site.site.themeConfig ??= {})
    const options = { includeDrafts: this.includeDrafts }
    // No sidebar of the author's: one section per folder. Theirs: kept, with new pages added to their groups.
    const next = this.userSidebar === undefined ? this.index.sidebarSections(options) : mergeSidebar(this.index.sidebar({ ...options, folderLimit: Number.POSITIVE_INFINITY }), this.userSidebar)
    if (JSON.stringify(next) === JSON.stringify(themeConfig.sidebar)) return false
    themeConfig.sidebar = next
    return true
  }
}
