import { describe, expect, it } from 'vitest'
import { KnowledgeIndex } from '../../../../server/knowledge/knowledge-index.js'
import { syntheticBlog } from '../../../bench/knowledge-synthetic-blog.js'

const blog = syntheticBlog(1_500)
const build = () => KnowledgeIndex.build(blog.pages)
// A word from the last page's title: the last page indexed in a build that goes in path order.
const lastTitle = blog.names.map((name) => name.path).sort().at(-1)!
const query = blog.names.find((name) => name.path === lastTitle)!.title.split(' ')[0]!

describe('searching while the search index is built in the background', () => {
  it('answers at once from every title and the bodies indexed so far, says how many, and indexes nothing on the spot', async () => {
    const index = build()
    const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve))
    // The build runs freely until the test holds it between two slices.
    let holding: Promise<void> | null = null
    let release: () => void = () => undefined
    const prepared = index.prepareSearch(() => holding ?? nextTurn())
    const title = blog.names.find((name) => name.path === lastTitle)!.title
    // Titles go in first: the last page is found by its title long before its body is indexed.
    while (!index.searchNow(title).results.some((result) => result.path === lastTitle)) await nextTurn()
    holding = new Promise<void>((resolve) => (release = resolve))
    await nextTurn()
    const answer = index.searchNow(title)
    expect(answer.results[0]?.path).toBe(lastTitle)
    expect(answer.progress?.total).toBe(index.size)
    expect(answer.progress!.indexed).toBeLessThan(index.size - 100)
    // A query during the first build adds no page itself: it answers at once, and the build goes on in its slices.
    expect(index.searchNow(title).progress!.indexed).toBe(answer.progress!.indexed)
    release()
    await prepared
    const complete = index.searchNow(query)
    expect(complete.progress).toBeUndefined()
    expect(complete.results).toEqual(build().search(query))
    // Two builds of 1,500 pages, one of them slice by slice: slow on a loaded 2-core machine.
  }, 60_000)

  it('adds a few pages changed since the build on the spot, so an edit is found at once', async () => {
    const index = build()
    await index.prepareSearch()
    index.upsert('notes/fresh.md', '# Fresh\n\nA kumquatish word.')
    const answer = index.searchNow('kumquatish')
    expect(answer.progress).toBeUndefined()
    expect(answer.results.map((result) => result.path)).toEqual(['notes/fresh.md'])
  })

  it('makes snippets from the page the result comes from', async () => {
    const index = build()
    await index.prepareSearch()
    const [result] = index.searchNow(query).results
    expect(result!.snippet.length).toBeGreaterThan(0)
    expect(result!.title).toBe(blog.names.find((name) => name.path === result!.path)!.title)
  })
})
