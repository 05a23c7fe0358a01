// MiniSearch keeps, for every term, a `Map` of fields and in each a `Map` from page to the term's count
// there: about 57 bytes a (term, page) pair, 2.2 million pairs and 128 MB on a 10,000-page blog. These
// two classes stand in for those Maps (the few Map methods MiniSearch 7.2.0 calls on them, see
// search-index.ts) at about 8 bytes a pair: a page's short id and its count packed in one number.

/** Counts are kept up to this (BM25 saturates long before); a page's short id fills the rest of a number. */
const COUNT_SPAN = 0x10000
const MAX_COUNT = COUNT_SPAN - 1

/** Lists up to this long grow by a copy of exactly the next length. */
const EXACT_UP_TO = 32

const idOf = (entry: number) => Math.floor(entry / COUNT_SPAN)
const countOf = (entry: number) => entry % COUNT_SPAN

/**
 * One term's pages in one field, with the term's count on each: short ids ascending (MiniSearch gives
 * each added page the next id), one packed number a page; a removed page leaves a zero count until the
 * next addition compacts the list, so removing while iterating (MiniSearch's vacuum does) is safe.
 */
export class Postings {
  private packed: number[] = []
  private live = 0
  /** Where the last `keys()` step stood: MiniSearch reads each page's count right after its id. */
  private cursor = 0

  get size(): number {
    return this.live
  }

  get(id: number): number | undefined {
    const at = this.find(id)
    const count = at < 0 ? 0 : countOf(this.packed[at]!)
    return count === 0 ? undefined : count
  }

  set(id: number, count: number): this {
    // MiniSearch never files a zero count: taken as removing the page, so a kept entry always counts.
    if (count < 1) {
      this.delete(id)
      return this
    }
    const packed = id * COUNT_SPAN + Math.min(count, MAX_COUNT)
    const at = this.find(id)
    if (at >= 0) {
      if (countOf(this.packed[at]!) === 0) this.live++
      this.packed[at] = packed
      return this
    }
    if (this.live < this.packed.length / 2) this.compact()
    const last = this.packed.length - 1
    if (last >= 0 && idOf(this.packed[last]!) > id) this.packed.splice(this.insertionPoint(id), 0, packed)
    // Most lists stay short: copied to their exact length, as `push` would leave room for 16 more.
    else if (last < EXACT_UP_TO) this.packed = this.packed.concat(packed)
    else this.packed.push(packed)
    this.live++
    return this
  }

  delete(id: number): boolean {
    const at = this.find(id)
    if (at < 0 || countOf(this.packed[at]!) === 0) return false
    this.packed[at] = id * COUNT_SPAN
    this.live--
    return true
  }

  /** Drops tombstones and the room `push` leaves to grow into: an index done building keeps only its entries. */
  trim(): void {
    if (this.packed.length > EXACT_UP_TO) this.compact()
  }

  *keys(): IterableIterator<number> {
    for (let at = 0; at < this.packed.length; at++) {
      const entry = this.packed[at]!
      if (countOf(entry) === 0) continue
      this.cursor = at
      yield idOf(entry)
    }
  }

  *[Symbol.iterator](): IterableIterator<[number, number]> {
    for (let at = 0; at < this.packed.length; at++) {
      const entry = this.packed[at]!
      if (countOf(entry) !== 0) yield [idOf(entry), countOf(entry)]
    }
  }

  /** The index of `id`'s entry, or -1. */
  private find(id: number): number {
    const entries = this.packed
    const near = entries[this.cursor]
    if (near !== undefined && idOf(near) === id) return this.cursor
    let low = 0
    let high = entries.length - 1
    while (low <= high) {
      const middle = (low + high) >> 1
      const found = idOf(entries[middle]!)
      if (found === id) return middle
      if (found < id) low = middle + 1
      else high = middle - 1
    }
    return -1
  }

  private insertionPoint(id: number): number {
    let low = 0
    let high = this.packed.length
    while (low < high) {
      const middle = (low + high) >> 1
      if (idOf(this.packed[middle]!) < id) low = middle + 1
      else high = middle
    }
    return low
  }

  /** A copy without tombstones, exactly as long as its entries (`slice` leaves no room to grow, `filter` does). */
  private compact(): void {
    const kept = this.live === this.packed.length ? this.packed : this.packed.filter((entry) => countOf(entry) !== 0)
    this.packed = kept.slice()
    this.cursor = 0
  }
}

/**
 * A term's postings by field id (MiniSearch numbers its fields 0, 1, 2…) instead of a Map: most terms
 * occur in one field only, kept inline; any other field's list goes in a small array beside it.
 */
export class FieldPostings {
  private field = -1
  private postings: Postings | undefined
  private others: [number, Postings][] | null = null

  get size(): number {
    return (this.field >= 0 ? 1 : 0) + (this.others?.length ?? 0)
  }

  get(fieldId: number): Postings | undefined {
    if (fieldId === this.field) return this.postings
    return this.others?.find(([id]) => id === fieldId)?.[1]
  }

  set(fieldId: number, postings: Postings): this {
    if (this.field < 0 || this.field === fieldId) {
      this.field = fieldId
      this.postings = postings
      return this
    }
    const other = this.others?.find(([id]) => id === fieldId)
    if (other) other[1] = postings
    else (this.others ??= []).push([fieldId, postings])
    return this
  }

  delete(fieldId: number): boolean {
    if (fieldId === this.field) {
      const next = this.others?.shift()
      this.field = next?.[0] ?? -1
      this.postings = next?.[1]
      if (this.others?.length === 0) this.others = null
      return true
    }
    const at = this.others?.findIndex(([id]) => id === fieldId) ?? -1
    if (at < 0) return false
    this.others!.splice(at, 1)
    if (this.others!.length === 0) this.others = null
    return true
  }

  trim(): void {
    this.postings?.trim()
    for (const [, postings] of this.others ?? []) postings.trim()
  }

  /** The fields as they were when iteration began: MiniSearch's vacuum deletes fields while it iterates. */
  [Symbol.iterator](): IterableIterator<[number, Postings]> {
    const all: [number, Postings][] = this.field >= 0 ? [[this.field, this.postings!]] : []
    return (this.others ? all.concat(this.others) : all)[Symbol.iterator]()
  }
}
