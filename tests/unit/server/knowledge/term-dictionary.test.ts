// The term dictionary stands in for MiniSearch's radix tree: its exact, prefix and typo-tolerant
// lookups must find what a plain scan of the same terms finds, through any additions and removals.
import { describe, expect, it } from 'vitest'
import { TermDictionary } from '../../../../server/knowledge/term-dictionary.js'
import { createRandom, type Random } from './random-site.js'

/** Levenshtein distance over UTF-16 code units, the textbook way. */
function distance(left: string, right: string): number {
  let row = Array.from({ length: right.length + 1 }, (_, column) => column)
  for (let index = 1; index <= left.length; index++) {
    const next = [index]
    for (let column = 1; column <= right.length; column++) {
      next[column] = Math.min(row[column - 1]! + (left[index - 1] === right[column - 1] ? 0 : 1), row[column]! + 1, next[column - 1]! + 1)
    }
    row = next
  }
  return row[right.length]!
}

/** Numbers filed by term, read as they are. */
const numbers = () => new TermDictionary<number, number>((dictionary, term) => dictionary.stored(term)!)

// Few letters, so that terms share prefixes and near misses are common; CJK and a surrogate pair too.
const LETTERS = ['a', 'b', 'c', 'ab', 'ba', '中', '文', '😀']
const randomTerm = (random: Random) => Array.from({ length: 1 + random.int(7) }, () => random.pick(LETTERS)).join('')

describe('TermDictionary', () => {
  it('finds by prefix and within an edit distance exactly what a scan finds, through additions and removals', () => {
    for (let seed = 1; seed <= 6; seed++) {
      const random = createRandom(seed)
      const dictionary = numbers()
      const map = new Map<string, number>()
      for (let step = 0; step < 1_500; step++) {
        const term = randomTerm(random)
        if (random.int(4) === 0) expect(dictionary.delete(term)).toBe(map.delete(term))
        else {
          dictionary.store(term, step)
          map.set(term, step)
        }
        expect(dictionary.get(term)).toBe(map.get(term))
        if (step % 50 !== 0) continue
        expect(dictionary.size, `seed ${seed} step ${step}`).toBe(map.size)
        const query = randomTerm(random)
        const prefix = query.slice(0, 1 + random.int(2))
        const byPrefix = [...map].filter(([each]) => each.startsWith(prefix)).sort(([left], [right]) => (left < right ? -1 : 1))
        expect([...dictionary.atPrefix(prefix)], `prefix ${prefix}`).toEqual(byPrefix)
        for (const maxDistance of [1, 2, 3]) {
          const near = [...map].filter(([each]) => distance(each, query) <= maxDistance).map(([each, value]) => [each, [value, distance(each, query)]])
          const found = [...dictionary.fuzzyGet(query, maxDistance)].sort(([left], [right]) => (left < right ? -1 : 1))
          expect(found, `fuzzy ${query} ≤ ${maxDistance}`).toEqual(near.sort(([left], [right]) => (left! < right! ? -1 : 1)))
        }
      }
      expect(new Map(dictionary)).toEqual(map)
    }
  })

  it('measures long terms without overflowing its byte-sized cells', () => {
    const dictionary = new TermDictionary<string, string>((store, term) => store.stored(term)!)
    const long = 'x'.repeat(300)
    for (const term of [long, `${long}y`, 'x'.repeat(299), 'xy']) dictionary.store(term, term)
    expect([...dictionary.fuzzyGet(long, 1).keys()].sort()).toEqual(['x'.repeat(299), long, `${long}y`].sort())
    expect([...dictionary.fuzzyGet('xx', 2).keys()]).toEqual(['xy'])
    expect(dictionary.fuzzyGet('xz', 1).get('xy')).toEqual(['xy', 1])
  })

  it('may lose terms while it is being iterated, as MiniSearch\'s vacuum does', () => {
    const dictionary = numbers()
    for (let index = 0; index < 100; index++) dictionary.store(`term${index}`, index)
    const seen: number[] = []
    for (const [term, value] of dictionary) {
      seen.push(value)
      dictionary.delete(term)
    }
    expect(seen).toHaveLength(100)
    expect(dictionary.size).toBe(0)
    expect([...dictionary.atPrefix('term')]).toEqual([])
    dictionary.store('term7', 7)
    expect([...dictionary.atPrefix('term')]).toEqual([['term7', 7]])
  })
})
