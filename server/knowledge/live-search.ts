import type { SearchResult } from '../../plugin/protocol.js'
import { nextTurn, runInSlices } from './load-pages.js'
import { SearchIndex, type BodyReader, type SearchablePage } from './search-index.js'

// Long enough to make progress, short enough that the dev server stays responsive.
const SLICE_MS = 12

/** After the first build, a query first adds pending pages for this long, so an edit is found at once, but never waits longer... */
const CATCH_UP_MS = 20
/** ...unless only this few are left: a small blog's search is then always complete. */
const CATCH_UP_PAGES = 25
/** New terms are sorted for prefix and typo-tolerant search at least this many at a time while the index builds. */
const SORT_BATCH = 4096
/** Below this many pages, a first build indexes bodies straight away (titles first would not be worth it). */
const TITLES_FIRST_FROM = 100

/** Search results, and how much of the blog they cover while the first build is still running. */
export interface SearchAnswer {
  results: SearchResult[]
  /** Present while the index is still being built: the results come from `indexed` of `total` pages (and every page's title). */
  progress?: { indexed: number; total: number }
}

/**
 * The search index over a live page map. Built on first use, or in the background in slices
 * that yield to the event loop (a 10k-page blog takes seconds); page changes made meanwhile are
 * applied as they come. The background build indexes every page's title, headings and tags first
 * (a small index, built in a fraction of the time), then the bodies: a search meanwhile answers from
 * both and says so. Once done, the titles index is dropped, and a search catches up on the few pages
 * changed since, on the spot.
 */
export class LiveSearch {
  private index: SearchIndex | null = null
  /** Every page by title, headings and tags, while the bodies are still being indexed. */
  private titles: SearchIndex | null = null
  /** Pages not yet added while a background build runs. */
  private pending: Set<string> | null = null
  private preparing: Promise<void> | null = null

  constructor(
    private readonly pages: ReadonlyMap<string, SearchablePage>,
    private readonly bodyOf?: BodyReader,
  ) {}

  get ready(): boolean {
    return this.index !== null && this.pending === null
  }

  search(query: string, limit?: number): SearchResult[] {
    return this.complete().search(query, limit)
  }

  /**
   * Like `search`, but never waits behind a background build: with more than a few pages still to
   * add, it answers from the pages indexed so far (and from every title once those are in) and says how many that is.
   */
  searchNow(query: string, limit?: number): SearchAnswer {
    // Not while the first build runs (the titles are there to answer from): the build goes on anyway, and the query would only wait.
    if (this.index && this.pending && !this.titles) this.catchUp(performance.now() + CATCH_UP_MS)
    if (this.pending && this.pending.size <= CATCH_UP_PAGES) this.catchUp(Number.POSITIVE_INFINITY)
    if (!this.index || !this.pending) return { results: this.search(query, limit) }
    const results = this.index.search(query, limit)
    if (this.titles) {
      const found = new Set(results.map((result) => result.path))
      results.push(...this.titles.search(query, limit).filter((result) => !found.has(result.path)))
      results.sort((left, right) => right.score - left.score)
    }
    return { results: results.slice(0, limit), progress: { indexed: this.index.size, total: this.pages.size } }
  }

  /** The finished index, built now if need be. */
  complete(): SearchIndex {
    if (!this.index) this.index = SearchIndex.build(this.pages.values(), this.bodyOf)
    if (this.pending) {
      for (const path of this.pending) this.add(path)
      this.pending = null
    }
    this.titles = null
    return this.index
  }

  /**
   * Builds the index a slice at a time; resolves when it is complete. Between slices it awaits
   * `pause` (default: the next turn of the event loop), so a busy server can hold the build back.
   */
  prepare(pause: () => Promise<unknown> = nextTurn): Promise<void> {
    if (this.ready) return Promise.resolve()
    if (this.preparing) return this.preparing
    const first = !this.index
    const index = (this.index ??= new SearchIndex(this.bodyOf))
    this.pending ??= new Set([...this.pages.keys()].filter((path) => !index.has(path)))
    this.preparing = (async () => {
      // Titles first, only on the first build: a query meanwhile finds any page by its title.
      if (first && this.pending!.size > TITLES_FIRST_FROM) await this.indexTitles(pause)
      await this.addPending(pause)
      if (first) {
        // What the first build's lists grew into and will not fill (some 7 % of the index), a slice at a time.
        await runInSlices(index.trimming(), SLICE_MS, pause)
        await this.addPending(pause)
      }
      this.preparing = null
    })()
    return this.preparing
  }

  private async addPending(pause: () => Promise<unknown>): Promise<void> {
    while (this.pending) {
      this.catchUp(performance.now() + SLICE_MS)
      // The terms are sorted as they come, in batches that take a few milliseconds, and the last when done.
      this.index?.sortTerms(this.pending ? SORT_BATCH : undefined)
      if (this.pending) await pause()
    }
  }

  /**
   * Call after the page map changed for `path` (added, replaced or removed). The search index
   * catches up in the background, in its own turn of the event loop: a big page's words are not
   * indexed in the same breath as its links (a search meanwhile catches up first).
   */
  changed(path: string): void {
    if (!this.index) return
    this.titleChanged(path)
    this.pending ??= new Set()
    this.pending.add(path)
    this.prepare().catch((error: Error) => console.warn(`[metablog] could not update search: ${error.message}`))
  }

  /** Adds pending pages until `deadline`; once none are left, the index is complete and the titles index goes. */
  private catchUp(deadline: number): void {
    for (const path of this.pending ?? []) {
      this.add(path)
      if (performance.now() >= deadline) break
    }
    if (this.pending?.size === 0) {
      this.pending = null
      this.titles = null
    }
  }

  private async indexTitles(pause: () => Promise<unknown>): Promise<void> {
    const titles = (this.titles = new SearchIndex(this.bodyOf, false))
    const paths = [...this.pages.keys()]
    for (let at = 0; at < paths.length && this.titles === titles; ) {
      const deadline = performance.now() + SLICE_MS
      while (at < paths.length && performance.now() < deadline) this.titleChanged(paths[at++]!)
      await pause()
    }
  }

  private titleChanged(path: string): void {
    const page = this.pages.get(path)
    if (page) this.titles?.upsert(page)
    else this.titles?.remove(path)
  }

  /** Brings one page of the search index in line with the page map. */
  private add(path: string): void {
    this.pending?.delete(path)
    const page = this.pages.get(path)
    if (page) this.index!.upsert(page)
    else this.index!.remove(path)
  }
}
