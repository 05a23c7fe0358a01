import type { DefaultTheme } from 'vitepress'
import type { GraphResponse, SearchResult, UnresolvedLink } from '../../plugin/protocol.js'
import { AttachmentLinks } from './attachment-links.js'
import { attachmentLookup } from './attachments.js'
import { ChangeSet, notePageChange, type IndexUpdate } from './change-set.js'
import { collectCollisions, collectGraph, type Collision, type GraphOptions } from './graph-view.js'
import { neighbourhood } from './graph-neighbourhood.js'
import { fragmentId, sameHeadings } from './heading-ids.js'
import { LinkGraph, type IndexedPage } from './link-graph.js'
import { listSiteFiles, pageReader, readPages, runInSlices, type PageReader, type SiteFiles } from './load-pages.js'
import { readPage } from './front-matter.js'
import { NameTable, dependencyKeysOf, symmetricDifference } from './name-table.js'
import { parsePage, type ParsedPage } from './parse-page.js'
import { lookupOf, resolveLookup, type Resolution } from './resolver.js'
import { LiveSearch, type SearchAnswer } from './live-search.js'
import { DEFAULT_SEARCH_LIMIT, MAX_SEARCH_TEXT, type SearchablePage } from './search-index.js'
import { buildSections, buildSidebar, type SidebarOptions } from './sidebar.js'
import type { IndexSnapshot } from './snapshot.js'
import type { OutgoingLink, PageInput, ResolvedPage } from './index-types.js'

export type { IndexUpdate } from './change-set.js'
export type { OutgoingLink, PageInput, ResolvedPage } from './index-types.js'
export type { Collision } from './graph-view.js'
export type { SearchAnswer } from './live-search.js'
export type { PageReader } from './load-pages.js'

/** A request that comes while the index is built waits at most about this long. */
const PARSE_SLICE_MS = 16

/**
 * The live knowledge layer: every page's links resolved Obsidian-style, backlinks, unresolved
 * links, the sidebar and full-text search. Built once from all pages, then kept current one page
 * at a time: an edit re-parses only that page, and a page appearing, leaving or being renamed
 * re-resolves only the links filed under one of its names.
 */
export class KnowledgeIndex {
  private readonly pages = new Map<string, IndexedPage>()
  private readonly names = new NameTable()
  private readonly links = new LinkGraph()
  private readonly attachments = new AttachmentLinks()
  /** With one, pages are kept without their text, read again for search (10,000 pages' text is ~25 MB of heap). */
  private reader: PageReader | null = null
  /** Built on the first search (or by prepareSearch), then kept current. */
  private readonly liveSearch = new LiveSearch(this.pages, (page) => this.bodyOf(page))
  private cachedGraph: GraphResponse | null = null

  /**
   * A full build: every page parsed once, every link resolved once; `attachments` are the site's
   * attachment files. Given a `reader`, the index keeps no page's text and reads it when search needs it.
   */
  static build(pages: Iterable<PageInput>, attachments: Iterable<string> = [], reader?: PageReader): KnowledgeIndex {
    const index = new KnowledgeIndex()
    for (const _step of index.fill(index.parseEach(pages), attachments, reader ?? null)) {
      // All at once: a build in memory has nothing to give way to.
    }
    return index
  }

  /**
   * Reads every page under the site's source folder and builds the index, awaiting `pause` (default:
   * a turn of the event loop) between slices of reading and of parsing. Reading finishes before
   * parsing starts on purpose: parsing inside the read callbacks was measured slower on 2 cores
   * (the thread pool's reads and the parser compete for the CPU, and wake-ups cost more).
   */
  static async load(sourceDir: string, pause?: () => Promise<unknown>): Promise<KnowledgeIndex> {
    // One walk finds the pages and the attachments.
    return KnowledgeIndex.loadListed(sourceDir, await listSiteFiles(sourceDir), pause)
  }

  /** `load` for the files of `sourceDir` as listed already. */
  static async loadListed(sourceDir: string, files: SiteFiles, pause?: () => Promise<unknown>): Promise<KnowledgeIndex> {
    const pages = await readPages(sourceDir, files.pages, pause)
    const index = new KnowledgeIndex()
    // Parsing and linking 10,000 pages takes most of a second: in slices, so a dev server answers meanwhile.
    await runInSlices(index.fill(index.parseEach(pages), files.attachments, pageReader(sourceDir, files.pages)), PARSE_SLICE_MS, pause)
    return index
  }

  /**
   * The index `load` builds, from the files of `sourceDir` as listed and their pages as another thread read and parsed them
   * (see parse-off-thread.ts, which the dev server uses): only names and links are done here, in slices.
   */
  static async fromParsed(sourceDir: string, files: SiteFiles, pages: ParsedPage[], pause?: () => Promise<unknown>): Promise<KnowledgeIndex> {
    const index = new KnowledgeIndex()
    await runInSlices(index.fill(pages, files.attachments, pageReader(sourceDir, files.pages)), PARSE_SLICE_MS, pause)
    return index
  }

  /** Each page parsed as it is asked for (after `fill` has set the reader). */
  private *parseEach(pages: Iterable<PageInput>): Generator<ParsedPage> {
    for (const page of pages) yield this.parse(page.path, page.content)
  }

  /** Fills a new index from its pages as they are parsed (here, or on another thread): names first, then every link resolved once; one step per page each time. */
  private *fill(pages: Iterable<ParsedPage>, attachments: Iterable<string>, reader: PageReader | null): Generator<void> {
    this.reader = reader
    for (const file of attachments) this.attachments.table.add(file)
    const parsed: ParsedPage[] = []
    // Names go in while the page is fresh in the cache; a name table is the same in any order.
    for (const page of pages) {
      this.names.add(page)
      parsed.push(page)
      yield
    }
    // Links resolve once every name is known, in the given order (dependents keep that order).
    for (const page of parsed) {
      this.pages.set(page.path, this.links.attach(page, this.names))
      this.attachments.attach(page)
      yield
    }
  }

  get size(): number {
    return this.pages.size
  }

  has(path: string): boolean {
    return this.pages.has(path)
  }

  paths(): string[] {
    return [...this.pages.keys()].sort()
  }

  /** Adds or replaces a page. */
  upsert(path: string, content: string): IndexUpdate {
    const changes = new ChangeSet()
    this.upsertInto(path, content, changes)
    return this.finish([path], changes)
  }

  remove(path: string): IndexUpdate {
    const changes = new ChangeSet()
    this.removeInto(path, changes)
    return this.finish([path], changes)
  }

  /** Moves a page; `content` defaults to what the page held (in an index that reads pages from disk, the file at either name). */
  rename(from: string, to: string, content?: string): IndexUpdate {
    const page = this.pages.get(from)
    const body = content ?? page?.content ?? (page && (this.reader?.(from) ?? this.reader?.(to))) ?? undefined
    if (body === undefined) throw new Error(`[metablog] cannot rename ${from}: the knowledge index has no such page.`)
    const changes = new ChangeSet()
    this.removeInto(from, changes)
    this.upsertInto(to, body, changes)
    return this.finish([from, to], changes)
  }

  /** Resolves a wiki-link target (the part before '#' and '|') as written on `fromPath`. */
  resolve(target: string, fromPath: string): ResolvedPage | null {
    const resolution = this.resolution(target, fromPath)
    const page = resolution.path === null ? undefined : this.pages.get(resolution.path)
    return page ? { path: page.path, title: page.title } : null
  }

  /** An attachment file was added (`present`) or removed: links to it re-resolve. */
  attachmentChanged(path: string, present: boolean): IndexUpdate {
    const changes = new ChangeSet()
    this.attachments.fileChanged(path, present, this.pages, changes)
    return this.finish([], changes)
  }

  /** The attachment file (relative to the site) an attachment target written on `fromPath` leads to, or null. */
  resolveAttachment(target: string, fromPath: string): string | null {
    return this.attachments.table.resolve(attachmentLookup(target, fromPath))
  }

  /** Attachment files that some page links to or embeds. */
  linkedAttachments(): string[] {
    return this.attachments.linked(this.pages.values())
  }

  /** The element id a wiki-link's `#fragment` reaches on `path`: VitePress's heading id, or a block id. */
  fragmentId(path: string, fragment: string, slug?: (text: string) => string): string {
    return fragmentId(this.pages.get(path)?.headings ?? [], fragment, slug)
  }

  /** Like `resolve`, with how the page was found and any name collision. */
  resolution(target: string, fromPath: string): Resolution {
    return resolveLookup(lookupOf('wiki', target.trim(), fromPath), fromPath, this.names)
  }

  outgoing(path: string): OutgoingLink[] {
    return (this.pages.get(path)?.links ?? []).map((link) => ({
      syntax: link.syntax,
      target: link.target,
      ...(link.heading ? { heading: link.heading } : {}),
      ...(link.label ? { label: link.label } : {}),
      embed: link.embed,
      line: link.line,
      resolved: link.resolution.path,
    }))
  }

  /** The pages that link to `path`, sorted. A page's links to its own headings are not backlinks. */
  backlinks(path: string): string[] {
    return this.links.backlinks(path)
  }

  graph(options: GraphOptions = {}): GraphResponse {
    if (options.includeDrafts === false) return collectGraph(this.pages.values(), options)
    return (this.cachedGraph ??= collectGraph(this.pages.values()))
  }

  /**
   * The part of the graph within one link of `path`, either direction: `neighbourhood(graph(), path)`,
   * made from those pages alone, without the whole graph (megabytes on a 10,000-page blog) or keeping it.
   */
  neighbourhood(path: string): GraphResponse {
    const page = this.pages.get(path)
    const near = new Set([path, ...this.links.backlinks(path)])
    for (const link of page?.links ?? []) if (link.resolution.path !== null) near.add(link.resolution.path)
    const pages = [...near].flatMap((each) => this.pages.get(each) ?? [])
    return neighbourhood(collectGraph(pages), path)
  }

  unresolved(): UnresolvedLink[] {
    return this.graph().unresolved
  }

  /** Links whose name matched several pages equally; the shortest path won. */
  collisions(): Collision[] {
    return collectCollisions(this.pages.values())
  }

  sidebar(options?: SidebarOptions): DefaultTheme.SidebarItem[] {
    return buildSidebar(this.pages.values(), options)
  }

  /** The sidebar as one section per top-level folder, for a site without its own. */
  sidebarSections(options?: SidebarOptions): DefaultTheme.SidebarMulti {
    return buildSections(this.pages.values(), options)
  }

  /** The sections `sidebarSections` gives for these top-level folders only: a live update rebuilds what changed, not the whole site. */
  sidebarSectionsOf(folders: ReadonlySet<string>, options?: SidebarOptions): DefaultTheme.SidebarMulti {
    const inFolders = [...this.pages.values()].filter((page) => {
      const slash = page.path.indexOf('/')
      return slash !== -1 && folders.has(page.path.slice(0, slash))
    })
    return buildSections(inFolders, options)
  }

  search(query: string, limit = DEFAULT_SEARCH_LIMIT): SearchResult[] {
    return this.liveSearch.search(query, limit)
  }

  /** Like `search`, but never waits for the background build: until it is done, answers from the pages indexed so far. */
  searchNow(query: string, limit = DEFAULT_SEARCH_LIMIT): SearchAnswer {
    return this.liveSearch.searchNow(query, limit)
  }

  /** Builds the search index now, all at once, rather than on the first query. */
  warmSearch(): void {
    this.liveSearch.complete()
  }

  /** Builds the search index in the background, awaiting `pause` between slices; searching meanwhile answers from what is indexed. */
  prepareSearch(pause?: () => Promise<unknown>): Promise<void> {
    return this.liveSearch.prepare(pause)
  }

  /** A deterministic plain-data view of everything the index holds, to compare two indexes. */
  snapshot(): IndexSnapshot {
    const pages = [...this.pages.values()]
      .sort((left, right) => (left.path < right.path ? -1 : 1))
      .map(({ content: _content, bodyOffset: _bodyOffset, ...page }) => page)
    return {
      pages,
      names: this.names.snapshot(),
      ...this.links.snapshot(),
      graph: this.graph(),
      collisions: this.collisions(),
      sidebar: this.sidebar(),
    }
  }

  private upsertInto(path: string, content: string, changes: ChangeSet): void {
    const previous = this.pages.get(path)
    const next = this.parse(path, content)
    if (previous) {
      this.links.detach(previous, this.names, changes)
      this.attachments.detach(previous)
      this.names.remove(previous)
    }
    this.names.add(next)
    const indexed = this.links.attach(next, this.names, changes)
    this.attachments.attach(indexed)
    this.pages.set(path, indexed)
    const keys = dependencyKeysOf(next)
    if (previous) {
      // Same path, so only names that came or went (a new title or alias) can change other links.
      const before = dependencyKeysOf(previous)
      this.links.reresolve({ paths: [], names: symmetricDifference(before.names, keys.names) }, this.pages, this.names, changes)
    } else {
      this.links.reresolve(keys, this.pages, this.names, changes)
    }
    this.liveSearch.changed(path)

    notePageChange(changes, previous, indexed)
    // Embeds show this page's title and heading links its heading ids: pages with those render differently now.
    const titleChanged = previous !== undefined && previous.title !== next.title
    const headingsChanged = previous !== undefined && !sameHeadings(previous.headings, next.headings)
    if (titleChanged || headingsChanged) {
      for (const source of this.links.backlinks(path)) {
        const shows = (link: IndexedPage['links'][number]) => link.resolution.path === path && ((titleChanged && link.embed) || (headingsChanged && link.heading !== undefined))
        if (this.pages.get(source)?.links.some(shows)) changes.relinked.add(source)
      }
    }
  }

  private removeInto(path: string, changes: ChangeSet): void {
    const previous = this.pages.get(path)
    if (!previous) return
    this.links.detach(previous, this.names, changes)
    this.attachments.detach(previous)
    this.names.remove(previous)
    this.pages.delete(path)
    this.links.reresolve(dependencyKeysOf(previous), this.pages, this.names, changes)
    this.liveSearch.changed(path)
    changes.graphChanged = true
    changes.sidebarChanged = true
  }

  /** Parses a page; with a reader, without keeping its text. */
  private parse(path: string, content: string): ParsedPage {
    const page = parsePage(path, content)
    if (this.reader) page.content = null
    return page
  }

  /** A page's body for search: from memory, or read again. The file may have changed since; a change on its way re-indexes it. */
  private bodyOf(page: SearchablePage): string | null {
    if (page.content !== null) return page.content.slice(page.bodyOffset, page.bodyOffset + MAX_SEARCH_TEXT)
    const content = this.reader?.(page.path) ?? null
    if (content === null) return null
    const { bodyOffset } = readPage(page.path, content)
    return content.slice(bodyOffset, bodyOffset + MAX_SEARCH_TEXT)
  }

  private finish(ownPaths: string[], changes: ChangeSet): IndexUpdate {
    const update = changes.result(
      ownPaths,
      (path) => this.pages.has(path),
      (target, source) => this.links.links(target, source),
    )
    if (update.graphChanged) this.cachedGraph = null
    return update
  }
}
