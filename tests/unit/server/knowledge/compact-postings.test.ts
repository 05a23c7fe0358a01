// The compact postings stand in for the Maps MiniSearch keeps per term: under any sequence of the Map
// methods MiniSearch calls on their views, they must answer as Maps would.
import MiniSearch from 'minisearch'
import { describe, expect, it } from 'vitest'
import { countOne, listOf, newList, PostingsView, TermFieldsView, trimmed, withList, type PostingsStore, type TermPostings } from '../../../../server/knowledge/compact-postings.js'
import { RankedSearch } from '../../../../server/knowledge/search-index.js'
import { createRandom } from './random-site.js'

const sorted = <T>(entries: Iterable<[number, T]>) => [...entries].sort((left, right) => left[0] - right[0])

/** A term's postings with one field's list in it, read as MiniSearch reads it. */
function termWith(fieldId: number, id: number, count: number): { store: PostingsStore; view: () => PostingsView } {
  let postings: TermPostings = newList(fieldId, id, count)
  const store: PostingsStore = { stored: () => postings, store: (_term, value) => (postings = value) }
  return { store, view: () => new TermFieldsView(store, 'term').get(fieldId)! }
}

describe('a posting list, read through its view', () => {
  it('answers get, size, keys and iteration as a Map of page ids to counts, under random sets and deletes', () => {
    for (const seed of [1, 2, 3, 4, 5]) {
      const random = createRandom(seed)
      const term = termWith(0, 0, 1)
      const map = new Map<number, number>([[0, 1]])
      let next = 1
      for (let step = 0; step < 2_000; step++) {
        const roll = random.int(10)
        // Mostly the next id (as MiniSearch adds pages), sometimes an older or a far one.
        const id = roll < 5 ? next++ : roll < 8 ? random.int(next + 1) : next + 40_000 + random.int(100_000)
        const op = random.int(5)
        // Now and then the room left to grow is given back, as after a build.
        if (step % 97 === 0) term.store.store('term', trimmed(term.store.stored('term')!))
        const postings = term.view()
        if (op === 0) {
          expect(postings.delete(id), `seed ${seed} step ${step}`).toBe(map.delete(id))
        } else if (op === 1) {
          // As MiniSearch's addTerm does, through countOne.
          countOne(listOf(term.store.stored('term')!, 0)!, id)
          map.set(id, (map.get(id) ?? 0) + 1)
        } else {
          const count = 1 + random.int(300)
          postings.set(id, count)
          map.set(id, count)
        }
        expect(postings.get(id)).toBe(map.get(id))
        expect(postings.size).toBe(map.size)
      }
      const postings = term.view()
      expect(sorted(postings)).toEqual(sorted(map))
      expect([...postings.keys()]).toEqual(sorted(map).map(([id]) => id))
      for (const id of map.keys()) expect(postings.get(id)).toBe(map.get(id))
      expect(postings.get(-1)).toBeUndefined()
    }
  })

  it('may be emptied while it is being iterated, as MiniSearch\'s vacuum does', () => {
    const term = termWith(2, 0, 1)
    const postings = term.view()
    for (let id = 1; id < 100; id++) postings.set(id, 1 + (id % 3))
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
    const postings = termWith(0, 3, 70_000).view().set(4, 1)
    expect(postings.get(3)).toBe(65_535)
    postings.set(4, 0)
    expect(postings.get(4)).toBeUndefined()
    expect(postings.size).toBe(1)
  })
})

describe('a term\'s fields, read through their view', () => {
  it('answers as a Map of field ids, whichever field comes first or goes', () => {
    const random = createRandom(11)
    let postings: TermPostings | undefined
    const store: PostingsStore = { stored: () => postings, store: (_term, value) => (postings = value) }
    const fields = new TermFieldsView(store, 'term')
    const map = new Map<number, Map<number, number>>()
    for (let step = 0; step < 500; step++) {
      const fieldId = random.int(4)
      if (random.int(3) === 0) expect(fields.delete(fieldId)).toBe(map.delete(fieldId))
      else if (!map.has(fieldId)) {
        // As MiniSearch's addTerm files a page for a field the term has no list for yet.
        postings = postings ? withList(postings, newList(fieldId, step)) : newList(fieldId, step)
        map.set(fieldId, new Map([[step, 1]]))
      } else {
        fields.get(fieldId)!.set(step, 2)
        map.get(fieldId)!.set(step, 2)
      }
      if (step % 50 === 0 && postings) postings = trimmed(postings)
      expect(fields.size).toBe(map.size)
      for (const id of [0, 1, 2, 3]) expect(fields.get(id) && sorted(fields.get(id)!)).toEqual(map.get(id) && sorted(map.get(id)!))
      expect(sorted(fields).map(([id, list]) => [id, sorted(list)])).toEqual(sorted(map).map(([id, list]) => [id, sorted(list)]))
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
