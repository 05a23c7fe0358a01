import type { SearchResult } from '../../plugin/protocol.js'
import { SearchIndex, type BodyReader, type SearchablePage } from './search-index.js'

// Long enough to make progress, short enough that the dev server stays responsive.
const SLICE_MS = 12

/** Pages a query adds on the spot rather than answer without them (a few milliseconds' work). */
const CATCH_UP_ON_QUERY = 100

const nextTurn = () => new Promise((resolve) => setImmediate(resolve))

/** Search results, and how much of the blog they cover while the first build is still running. */
export interface SearchAnswer {
  results: SearchResult[]
  /** Present while the index is still being built: the results come from `indexed` of `total` pages. */
  progress?: { indexed: number; total: number }
}

/**
 * The search index over a live page map. Built on first use, or in the background in slices
 * that yield to the event loop (a 10k-page blog takes seconds); page changes made meanwhile are
 * applied as they come. A search during the background build answers from what is indexed so far
 * and says so; a search once it is done catches up on the few pages changed since, on the spot.
 */
export class LiveSearch {
  private index: SearchIndex | null = null
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
   * add, it answers from the pages indexed so far and says how many that is.
   */
  searchNow(query: string, limit?: number): SearchAnswer {
    if (!this.index || !this.pending || this.pending.size <= CATCH_UP_ON_QUERY) return { results: this.search(query, limit) }
    return { results: this.index.search(query, limit), progress: { indexed: this.index.size, total: this.pages.size } }
  }

  /** The finished index, built now if need be. */
  complete(): SearchIndex {
    if (!this.index) this.index = SearchIndex.build(this.pages.values(), this.bodyOf)
    if (this.pending) {
      for (const path of this.pending) this.add(path)
      this.pending = null
    }
    return this.index
  }

  /**
   * Builds the index a slice at a time; resolves when it is complete. Between slices it awaits
   * `pause` (default: the next turn of the event loop), so a busy server can hold the build back.
   */
  prepare(pause: () => Promise<unknown> = nextTurn): Promise<void> {
    if (this.ready) return Promise.resolve()
    if (this.preparing) return this.preparing
    this.index ??= new SearchIndex(this.bodyOf)
    this.pending ??= new Set([...this.pages.keys()].filter((path) => !this.index!.has(path)))
    this.preparing = (async () => {
      while (this.pending && this.pending.size > 0) {
        const deadline = performance.now() + SLICE_MS
        for (const path of this.pending) {
          this.add(path)
          if (performance.now() >= deadline) break
        }
        await pause()
      }
      this.pending = null
      this.preparing = null
    })()
    return this.preparing
  }

  /**
   * Call after the page map changed for `path` (added, replaced or removed). The search index
   * catches up in the background, in its own turn of the event loop: a big page's words are not
   * indexed in the same breath as its links (a search meanwhile catches up first).
   */
  changed(path: string): void {
    if (!this.index) return
    this.pending ??= new Set()
    this.pending.add(path)
    this.prepare().catch((error: Error) => console.warn(`[metablog] could not update search: ${error.message}`))
  }

  /** Brings one page of the search index in line with the page map. */
  private add(path: string): void {
    this.pending?.delete(path)
    const page = this.pages.get(path)
    if (page) this.index!.upsert(page)
    else this.index!.remove(path)
  }
}
