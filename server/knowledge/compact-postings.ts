// MiniSearch keeps, for every term, a `Map` of fields and in each a `Map` from page to the term's count
// there: about 57 bytes a (term, page) pair, 2.4 million pairs and 128 MB on a 10,000-page blog. Here a
// term's postings are plain arrays of numbers, a page's short id and its count packed in one (8 bytes
// a pair, some 64 a list), and MiniSearch reads and updates them through views made when it asks, that
// answer the few Map methods MiniSearch 7.2.0 calls (see search-index.ts): objects kept around each
// of the 120,000 lists would cost another hundred bytes apiece.

/** Counts are kept up to this (BM25 saturates long before); a page's short id fills the rest of a number. */
const COUNT_SPAN = 0x10000
const MAX_COUNT = COUNT_SPAN - 1

/**
 * One field's pages for one term: `[fieldId, live, ...entries]`, each entry a page's short id and count
 * packed, ids ascending (MiniSearch gives each added page the next id). A removed page leaves a zero
 * count until the next addition compacts the list, so removing while iterating (MiniSearch's vacuum
 * and its searches do) is safe. `live` counts the entries with a count.
 */
export type PostingList = number[]
/** A term's lists: its one field's list (most terms occur in one field), or one list per field. */
export type TermPostings = PostingList | PostingList[]

const FIELD = 0
const LIVE = 1
const FIRST = 2

const idOf = (entry: number) => Math.floor(entry / COUNT_SPAN)
const countOf = (entry: number) => entry % COUNT_SPAN
const pack = (id: number, count: number) => id * COUNT_SPAN + Math.min(count, MAX_COUNT)

const isOneList = (postings: TermPostings): postings is PostingList => typeof postings[0] === 'number'

export const listsOf = (postings: TermPostings): PostingList[] => (isOneList(postings) ? [postings] : postings)

export function listOf(postings: TermPostings, fieldId: number): PostingList | undefined {
  return isOneList(postings) ? (postings[FIELD] === fieldId ? postings : undefined) : postings.find((list) => list[FIELD] === fieldId)
}

/** A term's postings with a first page in a field. */
export const newList = (fieldId: number, id: number, count = 1): PostingList => [fieldId, 1, pack(id, count)]

/** `postings` with `list` added, for a field it had no list for. */
export const withList = (postings: TermPostings, list: PostingList): TermPostings => (isOneList(postings) ? [postings, list] : (postings.push(list), postings))

/** `postings` without `fieldId`'s list: one list alone is kept as is, none as an empty list of lists. */
function withoutList(postings: TermPostings, fieldId: number): TermPostings {
  const rest = listsOf(postings).filter((list) => list[FIELD] !== fieldId)
  return rest.length === 1 ? rest[0]! : rest
}

/** Exactly as long as its entries, tombstones dropped: `push` leaves room to grow into, `slice` none. */
export function trimmed(postings: TermPostings): TermPostings {
  const lists = listsOf(postings).map((list) => (list[LIVE] === list.length - FIRST ? list : compacted(list)).slice())
  return lists.length === 1 ? lists[0]! : lists
}

// Where the last `keys()` step stood: MiniSearch reads each page's count right after its id.
let hintList: PostingList | null = null
let hintAt = 0

/** The index of `id`'s entry, or -1. */
function find(list: PostingList, id: number): number {
  if (hintList === list && hintAt < list.length && idOf(list[hintAt]!) === id) return hintAt
  let low = FIRST
  let high = list.length - 1
  while (low <= high) {
    const middle = (low + high) >> 1
    const found = idOf(list[middle]!)
    if (found === id) return middle
    if (found < id) low = middle + 1
    else high = middle - 1
  }
  return -1
}

function insertionPoint(list: PostingList, id: number): number {
  let low = FIRST
  let high = list.length
  while (low < high) {
    const middle = (low + high) >> 1
    if (idOf(list[middle]!) < id) low = middle + 1
    else high = middle
  }
  return low
}

/** The list without its tombstones, in place. */
function compacted(list: PostingList): PostingList {
  let kept = FIRST
  for (let at = FIRST; at < list.length; at++) if (countOf(list[at]!) !== 0) list[kept++] = list[at]!
  list.length = kept
  return list
}

export function countIn(list: PostingList, id: number): number | undefined {
  const at = find(list, id)
  const count = at < 0 ? 0 : countOf(list[at]!)
  return count === 0 ? undefined : count
}

export function setCount(list: PostingList, id: number, count: number): void {
  // MiniSearch never files a zero count: taken as removing the page, so a kept entry always counts.
  if (count < 1) {
    removeFrom(list, id)
    return
  }
  const entry = pack(id, count)
  const at = find(list, id)
  if (at >= 0) {
    if (countOf(list[at]!) === 0) list[LIVE]!++
    list[at] = entry
    return
  }
  // Only a new page compacts the list: an update in place never moves what an iteration has yet to read.
  if (list[LIVE]! < (list.length - FIRST) / 2) compacted(list)
  const last = list.length - 1
  if (last >= FIRST && idOf(list[last]!) > id) list.splice(insertionPoint(list, id), 0, entry)
  else list.push(entry)
  list[LIVE]!++
}

/** One more occurrence of the term on page `id` (most often the page added last, at the end of the list). */
export function countOne(list: PostingList, id: number): void {
  const last = list.length - 1
  const entry = list[last]!
  if (last >= FIRST && idOf(entry) === id && countOf(entry) !== 0) list[last] = pack(id, countOf(entry) + 1)
  else setCount(list, id, (countIn(list, id) ?? 0) + 1)
}

function removeFrom(list: PostingList, id: number): boolean {
  const at = find(list, id)
  if (at < 0 || countOf(list[at]!) === 0) return false
  list[at] = id * COUNT_SPAN
  list[LIVE]!--
  return true
}

/** One field's list as MiniSearch reads and updates it: a Map from page short id to count. */
export class PostingsView {
  constructor(private readonly list: PostingList) {}

  get size(): number {
    return this.list[LIVE]!
  }

  get(id: number): number | undefined {
    return countIn(this.list, id)
  }

  set(id: number, count: number): this {
    setCount(this.list, id, count)
    return this
  }

  delete(id: number): boolean {
    return removeFrom(this.list, id)
  }

  *keys(): IterableIterator<number> {
    const list = this.list
    for (let at = FIRST; at < list.length; at++) {
      const entry = list[at]!
      if (countOf(entry) === 0) continue
      hintList = list
      hintAt = at
      yield idOf(entry)
    }
  }

  *[Symbol.iterator](): IterableIterator<[number, number]> {
    const list = this.list
    for (let at = FIRST; at < list.length; at++) {
      const entry = list[at]!
      if (countOf(entry) !== 0) yield [idOf(entry), countOf(entry)]
    }
  }
}

/** Where a term's postings are kept, and changed. */
export interface PostingsStore {
  stored(term: string): TermPostings | undefined
  store(term: string, postings: TermPostings): void
}

/** A term's fields as MiniSearch reads and updates them: a Map from field id to that field's list. */
export class TermFieldsView {
  constructor(
    private readonly store: PostingsStore,
    private readonly term: string,
  ) {}

  private get postings(): TermPostings {
    return this.store.stored(this.term) ?? []
  }

  get size(): number {
    return listsOf(this.postings).length
  }

  get(fieldId: number): PostingsView | undefined {
    const list = listOf(this.postings, fieldId)
    return list && new PostingsView(list)
  }

  delete(fieldId: number): boolean {
    const postings = this.postings
    if (!listOf(postings, fieldId)) return false
    this.store.store(this.term, withoutList(postings, fieldId))
    return true
  }

  /** The fields as they were when iteration began: MiniSearch's vacuum deletes fields while it iterates. */
  *[Symbol.iterator](): IterableIterator<[number, PostingsView]> {
    for (const list of [...listsOf(this.postings)]) yield [list[FIELD]!, new PostingsView(list)]
  }
}
