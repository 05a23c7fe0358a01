import MiniSearch, { type Options, type SearchOptions } from 'minisearch'
import { countOne, listOf, newList, TermFieldsView, trimmed, withList, type TermPostings } from './compact-postings.js'
import { TermDictionary } from './term-dictionary.js'
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

// CJK terms (characters and bigrams: tens of thousands on a Chinese blog, most of the term tree) are
// filed under one first character of their own, so the typo-tolerant search for a Latin word, which
// walks the tree, steps past all of them at once instead of into every Chinese character's branch.
const CJK_BRANCH = '\u0001'

/** A term as the search index files it: processed, and a CJK term under the CJK branch. */
export function indexTerm(term: string): string {
  const processed = processTerm(term)
  return isCjkTerm(processed) ? `${CJK_BRANCH}${processed}` : processed
}

const isIndexedCjk = (term: string) => term.startsWith(CJK_BRANCH)

const EXACT: SearchOptions = {
  boost: { title: 4, headings: 2, tags: 2 },
  tokenize: (text) => tokenizeQuery(text),
}
// Search as you type: the last word may be unfinished. Expanding a short prefix touches much of
// the index, so it is only tried when the words as typed find too little.
const PREFIX: SearchOptions = {
  ...EXACT,
  prefix: (term, index, terms) => index === terms.length - 1 && term.length >= 3 && !isIndexedCjk(term),
}
// Typo tolerance walks much of the term tree: only tried when nothing else matched.
const FUZZY: SearchOptions = { ...EXACT, fuzzy: (term) => (term.length >= 5 && !isIndexedCjk(term) ? 0.2 : false), maxFuzzy: 2 }

const titleOf = (page: SearchablePage) => page.title.slice(0, MAX_SEARCH_TEXT)

/** What MiniSearch's `executeQuery` gives: each matching page's score and the query terms it matched. */
type ScoredMatches = Map<number, { score: number; terms: string[] }>

/** The best matches of a query, best first, and how many pages matched in all. */
interface TopMatches {
  hits: { id: string; score: number }[]
  total: number
}

/**
 * MiniSearch, asked for the best few results only. Its `search` builds a result object for every
 * matching page and sorts them all: for a common word on a 10,000-page blog that is most of the query.
 * Here the scores are the same (each page's score times the number of query terms it matched) and so
 * is the order, but for equal scores: here always the page indexed first. It reads MiniSearch's
 * `executeQuery` and `_documentIds` and replaces its term tree (`_index`) and `addTerm` (below),
 * internals: package.json pins MiniSearch's exact version for them.
 */
export class RankedSearch<T = SearchDocument> extends MiniSearch<T> {
  constructor(options: Options<T>) {
    super(options)
    // Terms in a dictionary (term-dictionary.ts) instead of MiniSearch's radix tree of Maps, a quarter of
    // its memory; their postings in arrays (compact-postings.ts), read through views.
    ;(this as unknown as { _index: Terms })._index = new TermDictionary((dictionary, term) => new TermFieldsView(dictionary, term))
  }

  /** Every term and its postings. */
  get terms(): Terms {
    return (this as unknown as { _index: Terms })._index
  }

  top(query: string, options: SearchOptions, limit: number): TopMatches {
    const matches = (this as unknown as { executeQuery(query: string, options: SearchOptions): ScoredMatches }).executeQuery(query, options)
    const best: { shortId: number; score: number }[] = []
    // Better: a higher score, or the same score and indexed first (whatever order the terms matched in).
    const before = (left: { shortId: number; score: number }, shortId: number, score: number) =>
      left.score > score || (left.score === score && left.shortId < shortId)
    for (const [shortId, match] of matches) {
      const score = match.score * (match.terms.length || 1)
      if (best.length === limit && before(best[limit - 1]!, shortId, score)) continue
      // Insertion into a short sorted list.
      let at = Math.min(best.length, limit - 1)
      if (best.length < limit) best.push({ shortId, score })
      while (at > 0 && !before(best[at - 1]!, shortId, score)) {
        best[at] = best[at - 1]!
        at--
      }
      best[at] = { shortId, score }
    }
    return { hits: best.map(({ shortId, score }) => ({ id: this._documentIds.get(shortId) as string, score })), total: matches.size }
  }
}

type Terms = TermDictionary<TermPostings, TermFieldsView>

// MiniSearch's `addTerm` (private in its types, so set on the prototype) files a (term, page) pair in
// compact postings (compact-postings.ts) instead of two levels of Maps, a tenth of their memory; the
// rest of MiniSearch reads and updates them through views with the same methods.
Object.defineProperty(RankedSearch.prototype, 'addTerm', {
  value: function addTerm(this: RankedSearch, fieldId: number, documentId: number, term: string): void {
    const postings = this.terms.stored(term)
    const list = postings && listOf(postings, fieldId)
    if (list) countOne(list, documentId)
    else this.terms.store(term, postings ? withList(postings, newList(fieldId, documentId)) : newList(fieldId, documentId))
  },
})

/** Full-text search over the pages (MiniSearch), updated page by page. */
export class SearchIndex {
  private readonly engine = new RankedSearch({
    fields: ['title', 'headings', 'tags', 'text'],
    storeFields: [],
    tokenize: (text) => tokenize(text),
    processTerm: (term) => indexTerm(term),
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

  /**
   * Sorts the terms added since it last did (what the first prefix or typo-tolerant search after them
   * would do); with `batch`, only once there are that many: see TermDictionary.sortAdded.
   */
  sortTerms(batch?: number): void {
    this.engine.terms.sortAdded(batch)
  }

  /** Gives back the room the postings left to grow into (some 7 % of the index), a term a step: for a build that is done. */
  *trimming(): Generator<void> {
    const terms = this.engine.terms
    for (const [term, postings] of terms.storedEntries()) {
      terms.store(term, trimmed(postings))
      yield
    }
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
    let found = this.engine.top(query, { ...EXACT, combineWith: 'AND' }, limit)
    if (found.total < limit) {
      const withPrefix = this.engine.top(query, { ...PREFIX, combineWith: 'AND' }, limit)
      if (withPrefix.total > found.total) found = withPrefix
    }
    if (found.total === 0) found = this.engine.top(query, { ...FUZZY, combineWith: 'AND' }, limit)
    if (found.total === 0) found = this.engine.top(query, { ...EXACT, combineWith: 'OR' }, limit)
    const snippetTerms = [processTerm(query.trim()), ...terms]
    return found.hits.map((hit) => {
      const path = hit.id
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
