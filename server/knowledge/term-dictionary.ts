// MiniSearch files its terms in a radix tree with a `Map` at every node: some 80,000 Maps and 22 MB on
// a 10,000-page blog, most of them holding one term. This dictionary stands in for that tree (the few
// methods MiniSearch 7.2.0 calls on it, see search-index.ts): one Map from term to its postings for the
// exact lookups that are most of the work, and the terms in sorted order for the prefix and
// typo-tolerant lookups, which walk that order as they would the tree.

/**
 * Terms and what is filed under each (`S`), read through a view (`V`) made on demand. Iterates in the
 * order terms were added; `atPrefix` and `fuzzyGet` read the terms in code-unit order, sorted when
 * first needed after a change (or ahead of time, see `sortAdded`).
 */
export class TermDictionary<S, V> {
  private readonly entries = new Map<string, S>()
  /** Every term in code-unit order, as of the last sort (removed ones may linger until the next). */
  private sorted: string[] = []
  /** Terms added since the last sort. */
  private added: string[] = []
  /** Terms removed since the last sort. */
  private removed = 0
  /** For each term in `sorted`, how many code units it shares at its start with the one before. */
  private shared = new Uint8Array(0)

  /** `view` gives what a term's entry is read through (the dictionary and the term: a view may change the entry). */
  constructor(private readonly view: (dictionary: TermDictionary<S, V>, term: string) => V) {}

  get size(): number {
    return this.entries.size
  }

  /** What is filed under `term`. */
  stored(term: string): S | undefined {
    return this.entries.get(term)
  }

  /** Files `value` under `term`, in place of what was. */
  store(term: string, value: S): void {
    if (!this.entries.has(term)) this.added.push(term)
    this.entries.set(term, value)
  }

  get(term: string): V | undefined {
    return this.entries.has(term) ? this.view(this, term) : undefined
  }

  has(term: string): boolean {
    return this.entries.has(term)
  }

  /** MiniSearch's way to get a term it knows is there (its `removeTerm` asks `has` first). */
  fetch(term: string): V {
    if (!this.entries.has(term)) throw new Error(`no term ${JSON.stringify(term)} in the search index`)
    return this.view(this, term)
  }

  delete(term: string): boolean {
    if (!this.entries.delete(term)) return false
    this.removed++
    return true
  }

  /** Safe to delete from while iterating (MiniSearch's vacuum does), as a Map is. */
  *[Symbol.iterator](): IterableIterator<[string, V]> {
    for (const term of this.entries.keys()) yield [term, this.view(this, term)]
  }

  /** Every term and what is filed under it, in the order they were added. */
  storedEntries(): IterableIterator<[string, S]> {
    return this.entries.entries()
  }

  /** Every term that starts with `prefix` (itself included), in code-unit order. */
  *atPrefix(prefix: string): IterableIterator<[string, V]> {
    const terms = this.ordered()
    for (let at = firstAtLeast(terms, prefix, 0); at < terms.length && terms[at]!.startsWith(prefix); at++) {
      if (this.entries.has(terms[at]!)) yield [terms[at]!, this.view(this, terms[at]!)]
    }
  }

  /**
   * Every term within `maxDistance` edits (Levenshtein: insert, delete, replace a UTF-16 code unit) of
   * `query`, with its distance. The terms are walked in order, as MiniSearch walks its tree: the rows of
   * the distance matrix for the prefix a term shares with the one before are kept, and once every cell
   * of a row is over the limit, the terms that share that prefix are stepped over.
   */
  fuzzyGet(query: string, maxDistance: number): Map<string, [V, number]> {
    const results = new Map<string, [V, number]>()
    const terms = this.ordered()
    const shared = this.shared
    const columns = query.length + 1
    const over = maxDistance + 1
    const codes = Array.from({ length: query.length }, (_, index) => query.charCodeAt(index))
    // Row r holds the distances of the term's first r code units to each prefix of the query. Cells
    // are capped at `over` (they only need to say "too far"), so a byte holds any of them. Only the
    // cells within `maxDistance` of the diagonal are computed; the others stay `over`, which they are
    // at least. A row past `columns + maxDistance` is always over, so no term is read further than that.
    const matrix = new Uint8Array((columns + over) * columns).fill(over)
    for (let column = 0; column < Math.min(columns, over); column++) matrix[column] = column
    for (let row = 1; row < over; row++) matrix[row * columns] = row
    // Rows of the matrix that hold the last term read (the first `rows` of its code units).
    let rows = 0
    for (let at = 0; at < terms.length; ) {
      const term = terms[at]!
      let row = Math.min(rows, shared[at]!, term.length)
      let dead = false
      for (; row < term.length && !dead; row++) {
        const code = term.charCodeAt(row)
        const above = row * columns
        const here = above + columns
        let least = matrix[here]!
        const last = Math.min(columns - 1, row + 1 + maxDistance)
        for (let column = Math.max(1, row + 1 - maxDistance); column <= last; column++) {
          const replace = matrix[above + column - 1]! + (code === codes[column - 1] ? 0 : 1)
          const cell = Math.min(replace, matrix[above + column]! + 1, matrix[here + column - 1]! + 1, over)
          matrix[here + column] = cell
          if (cell < least) least = cell
        }
        dead = least > maxDistance
      }
      rows = row
      at++
      if (dead) {
        // No term that starts with these `row` code units can come within reach: the ones that follow share them.
        while (at < terms.length && shared[at]! >= row) at++
        continue
      }
      const distance = matrix[term.length * columns + columns - 1]!
      if (distance <= maxDistance && this.entries.has(term)) results.set(term, [this.view(this, term), distance])
    }
    return results
  }

  /**
   * Sorts the terms added since the last sort into the order the prefix and typo-tolerant lookups
   * walk, which they would otherwise do first. With `batch`, only once that many have come and half as
   * many as are sorted already: a background build calls it as it goes, so no lookup waits for it.
   */
  sortAdded(batch?: number): void {
    const due = batch === undefined ? this.added.length > 0 : this.added.length >= Math.max(batch, this.sorted.length / 2)
    if (due) this.ordered()
  }

  /** The terms in code-unit order: the ones added since the last call sorted and merged in, removed ones dropped. */
  private ordered(): string[] {
    if (this.added.length === 0 && this.removed * 4 <= this.sorted.length) return this.sorted
    const added = this.added.sort()
    const merged: string[] = []
    const keep = (term: string) => {
      if (merged[merged.length - 1] !== term && this.entries.has(term)) merged.push(term)
    }
    let left = 0
    let right = 0
    while (left < this.sorted.length || right < added.length) {
      if (right === added.length || (left < this.sorted.length && this.sorted[left]! <= added[right]!)) keep(this.sorted[left++]!)
      else keep(added[right++]!)
    }
    this.shared = new Uint8Array(merged.length)
    for (let at = 1; at < merged.length; at++) this.shared[at] = sharedPrefix(merged[at - 1]!, merged[at]!)
    this.sorted = merged
    this.added = []
    this.removed = 0
    return merged
  }
}

/** How many code units two terms share at their start, up to 255 (a longer run is only counted as 255: read again, never skipped). */
function sharedPrefix(left: string, right: string): number {
  const end = Math.min(left.length, right.length, 255)
  let at = 0
  while (at < end && left.charCodeAt(at) === right.charCodeAt(at)) at++
  return at
}

/** The first index from `from` whose term is `>= text`, in a sorted list. */
function firstAtLeast(terms: string[], text: string, from: number): number {
  let low = from
  let high = terms.length
  while (low < high) {
    const middle = (low + high) >>> 1
    if (terms[middle]! < text) low = middle + 1
    else high = middle
  }
  return low
}
