import MiniSearch, { type SearchOptions } from 'minisearch'
import type { SearchResult } from '../../plugin/protocol.js'
import { markdownToText } from './plain-text.js'
import { makeSnippet } from './snippet.js'
import { isCjkTerm, processTerm, tokenize, tokenizeQuery } from './tokenizer.js'

/** The parts of a page the search index reads. */
export interface SearchablePage {
  path: string
  title: string
  tags: string[]
  headings: { text: string }[]
  /** The file's text, or null when `BodyReader` reads it from disk. */
  content: string | null
  bodyOffset: number
}

/** A page's body (the Markdown after its front matter); null when it cannot be read. */
export type BodyReader = (page: SearchablePage) => string | null

const bodyInMemory: BodyReader = (page) => (page.content === null ? null : page.content.slice(page.bodyOffset, page.bodyOffset + MAX_SEARCH_TEXT))

interface SearchDocument {
  id: string
  title: string
  headings: string
  tags: string
  text: string
}

export const DEFAULT_SEARCH_LIMIT = 20
/** Longer queries are cut: nobody types more, and every word of a query costs a walk of the index. */
export const MAX_QUERY_LENGTH = 200
/**
 * Only the start of a huge page is searchable (some 20,000 words): a post is rarely over 100 KiB,
 * and indexing 2 MiB of words blocks the dev server for most of a second (MiniSearch adds every
 * token one by one, in one go).
 */
export const MAX_SEARCH_TEXT = 128 * 1024

const EXACT: SearchOptions = {
  boost: { title: 4, headings: 2, tags: 2 },
  tokenize: (text) => tokenizeQuery(text),
}
// Search as you type: the last word may be unfinished. Expanding a short prefix touches much of
// the index, so it is only tried when the words as typed find too little.
const PREFIX: SearchOptions = {
  ...EXACT,
  prefix: (term, index, terms) => index === terms.length - 1 && term.length >= 3 && !isCjkTerm(term),
}
// Typo tolerance walks much of the term tree: only tried when nothing else matched.
const FUZZY: SearchOptions = { ...EXACT, fuzzy: (term) => (term.length >= 5 && !isCjkTerm(term) ? 0.2 : false), maxFuzzy: 2 }

const titleOf = (page: SearchablePage) => page.title.slice(0, MAX_SEARCH_TEXT)

/** Full-text search over the pages (MiniSearch), updated page by page. */
export class SearchIndex {
  private readonly engine = new MiniSearch<SearchDocument>({
    fields: ['title', 'headings', 'tags', 'text'],
    storeFields: [],
    tokenize: (text) => tokenize(text),
    processTerm: (term) => processTerm(term),
    // Replacing a page leaves tombstones; clean them up in small batches once enough pile up.
    autoVacuum: { minDirtCount: 100, minDirtFactor: 0.1, batchSize: 1000, batchWait: 10 },
  })
  /**
   * The page each indexed path was indexed from, for results and snippets. The page itself, not its
   * plain text: a snippet is made for the few pages a query returns, and 10,000 pages' text stays out of memory.
   */
  private readonly documents = new Map<string, SearchablePage>()

  /**
   * `bodyOf` gives a page's body to index and cut snippets from; by default the page's own `content`.
   * With `bodies` false only titles, headings and tags are indexed (snippets still come from the body).
   */
  constructor(
    private readonly bodyOf: BodyReader = bodyInMemory,
    private readonly bodies = true,
  ) {}

  static build(pages: Iterable<SearchablePage>, bodyOf?: BodyReader): SearchIndex {
    const index = new SearchIndex(bodyOf)
    for (const page of pages) index.upsert(page)
    return index
  }

  get size(): number {
    return this.documents.size
  }

  has(path: string): boolean {
    return this.documents.has(path)
  }

  upsert(page: SearchablePage): void {
    if (this.documents.has(page.path)) this.engine.discard(page.path)
    this.engine.add(this.toDocument(page))
    this.documents.set(page.path, page)
  }

  remove(path: string): void {
    if (!this.documents.delete(path)) return
    this.engine.discard(path)
  }

  /**
   * Every word must match: as typed, then (if that finds fewer than `limit`) with the last word as
   * a prefix, then (if nothing) with typos in long words. Still nothing: any word may match.
   */
  search(fullQuery: string, limit = DEFAULT_SEARCH_LIMIT): SearchResult[] {
    const query = fullQuery.slice(0, MAX_QUERY_LENGTH)
    const terms = tokenizeQuery(query).map(processTerm)
    if (terms.length === 0 || limit <= 0) return []
    let hits = this.engine.search(query, { ...EXACT, combineWith: 'AND' })
    if (hits.length < limit) {
      const withPrefix = this.engine.search(query, { ...PREFIX, combineWith: 'AND' })
      if (withPrefix.length > hits.length) hits = withPrefix
    }
    if (hits.length === 0) hits = this.engine.search(query, { ...FUZZY, combineWith: 'AND' })
    if (hits.length === 0) hits = this.engine.search(query, { ...EXACT, combineWith: 'OR' })
    const snippetTerms = [processTerm(query.trim()), ...terms]
    return hits.slice(0, limit).map((hit) => {
      const path = String(hit.id)
      const page = this.documents.get(path)
      return {
        path,
        title: page ? titleOf(page) : path,
        score: Math.round(hit.score * 1000) / 1000,
        snippet: makeSnippet(page ? this.textOf(page) : '', snippetTerms),
      }
    })
  }

  private textOf(page: SearchablePage): string {
    const body = this.bodyOf(page)
    return body === null ? '' : markdownToText(body.slice(0, MAX_SEARCH_TEXT))
  }

  private toDocument(page: SearchablePage): SearchDocument {
    return {
      id: page.path,
      title: titleOf(page),
      headings: page.headings.map((heading) => heading.text).join('\n').slice(0, MAX_SEARCH_TEXT),
      tags: page.tags.join(' '),
      text: this.bodies ? this.textOf(page) : '',
    }
  }
}
