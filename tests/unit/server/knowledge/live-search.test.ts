import { describe, expect, it } from 'vitest'
import { KnowledgeIndex } from '../../../../server/knowledge/knowledge-index.js'
import { syntheticBlog } from '../../../bench/knowledge-synthetic-blog.js'

const blog = syntheticBlog(1_500)
const build = () => KnowledgeIndex.build(blog.pages)
// A word from the last page's title: the last page indexed in a build that goes in path order.
const lastTitle = blog.names.map((name) => name.path).sort().at(-1)!
const query = blog.names.find((name) => name.path === lastTitle)!.title.split(' ')[0]!

describe('searching while the search index is built in the background', () => {
  it('answers at once from the pages indexed so far, says how many, and indexes nothing on the spot', async () => {
    const index = build()
    // Hold the build between slices until the test lets it go on.
    let release: () => void = () => undefined
    const held = new Promise<void>((resolve) => (release = resolve))
    const prepared = index.prepareSearch(() => held)
    const answer = index.searchNow(query)
    expect(answer.progress?.total).toBe(index.size)
    expect(answer.progress!.indexed).toBeGreaterThan(0)
    expect(answer.progress!.indexed).toBeLessThan(index.size - 100)
    // A second query finds the index where the first left it: the query did not finish the build.
    expect(index.searchNow(query).progress?.indexed).toBe(answer.progress!.indexed)
    release()
    await prepared
    const complete = index.searchNow(query)
    expect(complete.progress).toBeUndefined()
    expect(complete.results).toEqual(build().search(query))
  })

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
