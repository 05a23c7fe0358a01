import { describe, expect, it } from 'vitest'
import { findRelated } from '../../../../client/skills/related-posts'
import type { SkillContext } from '../../../../client/runtime/types'
import { createBlog } from './skill-harness'

// Which pages hold which words: the search answers one word with the pages that contain it.
const words: Record<string, string[]> = {
  'posts/etags.md': ['http', 'caching', 'etags', 'first'],
  'posts/cache-control.md': ['http', 'caching', 'headers'],
  'posts/graphs.md': ['first', 'graphs'],
  'posts/streams.md': ['first', 'streams'],
  'zh/http.md': ['http', 'caching', '缓存'],
  'posts/index.md': ['http', 'caching', 'etags'],
}
const titles: Record<string, string> = { 'zh/http.md': 'HTTP 缓存', 'posts/index.md': 'Posts' }

function contextFor() {
  const pages = Object.fromEntries(Object.keys(words).map((path) => [path, { title: titles[path] ?? path, content: '' }]))
  const blog = createBlog(pages, {
    search: (query) => Object.entries(words).filter(([, list]) => list.includes(query)).map(([path]) => ({ path, title: titles[path] ?? path, score: 1, snippet: '' })),
  })
  return { api: blog.api, signal: new AbortController().signal } as unknown as SkillContext
}

describe('findRelated', () => {
  it('ranks pages by the rare words they share, and leaves out a page that shares one common word or is a listing', async () => {
    const related = await findRelated(contextFor(), ['HTTP caching first', 'ETags'], 'HTTP caching')
    // zh/http.md shares as much as cache-control.md, but an English post's readers are served English first.
    expect(related.map((page) => page.path)).toEqual(['posts/etags.md', 'posts/cache-control.md'])
  })

  it('puts pages in the post’s language first', async () => {
    const related = await findRelated(contextFor(), ['HTTP caching'], '缓存')
    expect(related[0]?.path).toBe('zh/http.md')
  })

  it('finds nothing rather than noise', async () => {
    expect(await findRelated(contextFor(), ['first steps with rust'], 'rust')).toEqual([])
    expect(await findRelated(contextFor(), [''], '')).toEqual([])
  })
})
