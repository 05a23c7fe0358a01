// The compact postings stand in for the Maps MiniSearch keeps per term: under any sequence of the Map
// methods MiniSearch calls, they must answer as a Map would.
import MiniSearch from 'minisearch'
import { describe, expect, it } from 'vitest'
import { FieldPostings, Postings } from '../../../../server/knowledge/compact-postings.js'
import { RankedSearch } from '../../../../server/knowledge/search-index.js'
import { createRandom } from './random-site.js'

const sorted = <T>(entries: Iterable<[number, T]>) => [...entries].sort((left, right) => left[0] - right[0])

describe('Postings', () => {
  it('answers get, size, keys and iteration as a Map of page ids to counts, under random sets and deletes', () => {
    for (const seed of [1, 2, 3, 4, 5]) {
      const random = createRandom(seed)
      const postings = new Postings()
      const map = new Map<number, number>()
      let next = 0
      for (let step = 0; step < 2_000; step++) {
        const roll = random.int(10)
        // Mostly the next id (as MiniSearch adds pages), sometimes an older or a far one.
        const id = roll < 5 ? next++ : roll < 8 ? random.int(next + 1) : next + 40_000 + random.int(100_000)
        const op = random.int(4)
        // Now and then the room left to grow is given back, as after a build.
        if (step % 97 === 0) postings.trim()
        if (op === 0) {
          expect(postings.delete(id), `seed ${seed} step ${step}`).toBe(map.delete(id))
        } else {
          const count = 1 + random.int(300)
          postings.set(id, count)
          map.set(id, count)
        }
        expect(postings.get(id)).toBe(map.get(id))
        expect(postings.size).toBe(map.size)
      }
      expect(sorted(postings)).toEqual(sorted(map))
      expect([...postings.keys()]).toEqual(sorted(map).map(([id]) => id))
      for (const id of map.keys()) expect(postings.get(id)).toBe(map.get(id))
      expect(postings.get(-1)).toBeUndefined()
    }
  })

  it('may be emptied while it is being iterated, as MiniSearch\'s vacuum does', () => {
    const postings = new Postings()
    for (let id = 0; id < 100; id++) postings.set(id, 1 + (id % 3))
    const seen: number[] = []
    for (const [id] of postings) {
      seen.push(id)
      postings.delete(id)
    }
    expect(seen).toEqual(Array.from({ length: 100 }, (_, id) => id))
    expect(postings.size).toBe(0)
    postings.set(7, 2)
    expect(sorted(postings)).toEqual([[7, 2]])
  })

  it('keeps counts up to 65,535 and a zero count as no entry', () => {
    const postings = new Postings().set(3, 70_000).set(4, 1)
    expect(postings.get(3)).toBe(65_535)
    postings.set(4, 0)
    expect(postings.get(4)).toBeUndefined()
    expect(postings.size).toBe(1)
  })
})

describe('FieldPostings', () => {
  it('answers as a Map of field ids, whichever field comes first or goes', () => {
    const random = createRandom(11)
    const fields = new FieldPostings()
    const map = new Map<number, Postings>()
    for (let step = 0; step < 500; step++) {
      const fieldId = random.int(4)
      if (random.int(3) === 0) expect(fields.delete(fieldId)).toBe(map.delete(fieldId))
      else {
        const postings = new Postings().set(step, 1)
        fields.set(fieldId, postings)
        map.set(fieldId, postings)
      }
      expect(fields.get(fieldId)).toBe(map.get(fieldId))
      expect(fields.size).toBe(map.size)
      expect(sorted(fields)).toEqual(sorted(map))
    }
  })
})

describe('the search index on compact postings', () => {
  it('scores and ranks every query as MiniSearch on its own Maps, through additions, replacements, removals and a vacuum', async () => {
    const options = { fields: ['title', 'text'], storeFields: [] as string[] }
    const compact = new RankedSearch(options)
    const plain = new MiniSearch<{ id: string; title: string; text: string }>(options)
    const random = createRandom(7)
    const words = Array.from({ length: 60 }, (_, index) => `word${index}`)
    const sentence = () => Array.from({ length: 3 + random.int(30) }, () => random.pick(words)).join(' ')
    const present = new Set<string>()
    for (let step = 0; step < 600; step++) {
      const id = `page-${random.int(150)}`
      if (present.has(id)) for (const engine of [compact, plain]) engine.discard(id)
      if (random.int(5) === 0 && present.has(id)) present.delete(id)
      else {
        const document = { id, title: sentence().slice(0, 20), text: sentence() }
        for (const engine of [compact, plain]) engine.add(document)
        present.add(id)
      }
    }
    const search = (engine: MiniSearch, query: string, fuzzy: number | false) =>
      engine
        .search(query, { boost: { title: 3 }, prefix: true, fuzzy })
        .map((result) => [result.id, result.score.toFixed(9)])
        // Equal scores in page order: MiniSearch lists them in the order the terms matched, its tree's.
        .sort(([leftId, leftScore], [rightId, rightScore]) => Number(rightScore) - Number(leftScore) || leftId!.localeCompare(rightId!))
    const queries = [...words.slice(0, 20), 'word1 word2', 'word', 'wrod12', 'nothing']
    for (const query of queries) expect(search(compact, query, 0.2), query).toEqual(search(plain, query, 0.2))
    await Promise.all([compact.vacuum(), plain.vacuum()])
    for (const query of queries) expect(search(compact, query, false), query).toEqual(search(plain, query, false))
    expect(compact.termCount).toBe(plain.termCount)
  })
})
