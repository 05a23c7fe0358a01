import { afterEach, describe, expect, it } from 'vitest'
import type { MetaBlogApi } from '../../../../client/api/metablog-api'
import { setPageNavigator } from '../../../../client/runtime/page-navigation'
import { deleteSkill } from '../../../../client/skills/delete'
import { exactMatches } from '../../../../client/skills/page-target'
import { createBlog, runSkill } from './skill-harness'

const pages = {
  'posts/old.md': { title: 'Old Post', content: '# Old Post\n\nBye.\n' },
  'posts/fan.md': { title: 'Fan', content: 'See [[posts/old]].\n' },
  'posts/index.md': { title: 'Posts', content: '# Posts\n' },
  'posts/http-caching-with-etags.md': { title: 'HTTP Caching with ETags', content: '# HTTP Caching with ETags\n' },
  'notes/caching-headers.md': { title: 'Caching headers', content: '# Caching headers\n' },
}
const graph = {
  nodes: [],
  edges: [{ source: 'posts/fan.md', target: 'posts/old.md' }],
  unresolved: [],
}
const request = { text: '/delete posts/old.md', params: { path: 'posts/old.md' } }
// What the search index answers for "HTTP caching": close pages, and one deleted a moment ago that it still lists.
const search = () => [
  { path: 'posts/http-caching.md', title: 'HTTP caching', score: 9, snippet: '' },
  { path: 'posts/http-caching-with-etags.md', title: 'HTTP Caching with ETags', score: 5, snippet: '' },
  { path: 'notes/caching-headers.md', title: 'Caching headers', score: 2, snippet: '' },
]

let removeNavigator: (() => void) | undefined
afterEach(() => removeNavigator?.())

/** Counts DELETE requests, whatever else the blog does. */
function counting(api: MetaBlogApi) {
  const deletes: string[] = []
  return { deletes, api: { ...api, deleteFile: (path: string, ...rest: unknown[]) => (deletes.push(path), (api.deleteFile as (...args: unknown[]) => unknown)(path, ...rest)) } as MetaBlogApi }
}

describe('delete skill', () => {
  it('asks with the whole page and a warning about its backlinks, then deletes it', async () => {
    const blog = createBlog(pages, { graph })
    const run = await runSkill(deleteSkill, { inputs: request, api: blog.api })
    expect(run.proposals).toEqual([
      { kind: 'delete', path: 'posts/old.md', summary: 'Delete “Old Post” (posts/old.md). 1 page links to it; that link will lead nowhere.', before: pages['posts/old.md'].content, after: '' },
    ])
    expect(blog.has('posts/old.md')).toBe(false)
    expect(run.said.at(-1)).toBe('Deleted `posts/old.md`.')
  })

  it('keeps the page when the author says no, and ends as declined, never "deleting"', async () => {
    const blog = createBlog(pages, { graph })
    const run = await runSkill(deleteSkill, { inputs: request, api: blog.api, decisions: [{ action: 'reject' }] })
    expect(blog.has('posts/old.md')).toBe(true)
    expect(run.outputs.get('delete')).toEqual({ declined: 'posts/old.md' })
    expect(run.progress).toEqual(['Declined: nothing was deleted'])
    expect(run.said.at(-1)).toBe('Declined: kept `posts/old.md`.')
  })

  it('deletes nothing if the page changed while the card waited', async () => {
    const blog = createBlog(pages, { graph })
    // The author edits the page in their editor between the card and the delete request.
    const api = { ...blog.api, deleteFile: (...args: Parameters<MetaBlogApi['deleteFile']>) => (blog.edit('posts/old.md', '# Old Post\n\nThe author added this.\n'), blog.api.deleteFile(...args)) }
    const run = await runSkill(deleteSkill, { inputs: request, api: api as MetaBlogApi })
    expect(run.error).toBeUndefined()
    expect(blog.content('posts/old.md')).toContain('The author added this.')
    expect(run.said.at(-1)).toMatch(/changed since I read it, so I deleted nothing/)
  })

  it('explains what to do when there is no page to delete', async () => {
    const blog = createBlog(pages, { graph })
    const run = await runSkill(deleteSkill, { inputs: { text: 'delete the post', params: { path: 'posts/none.md' } }, api: blog.api })
    expect(run.error).toMatchObject({ code: 'ERR_PAGE_NOT_FOUND' })
  })

  it('never guesses: a name that is not exactly one page lists the candidates that still exist, asks nothing and deletes nothing', async () => {
    const blog = createBlog(pages, { graph, search })
    const { api, deletes } = counting(blog.api)
    const run = await runSkill(deleteSkill, { inputs: { text: 'delete the post about HTTP caching', params: { pageHint: 'HTTP caching' } }, api })
    expect(run.error).toBeUndefined()
    expect(run.proposals).toEqual([])
    expect(deletes).toEqual([])
    expect(run.outputs.get('read')).toEqual({
      candidates: [
        { path: 'posts/http-caching-with-etags.md', title: 'HTTP Caching with ETags' },
        { path: 'notes/caching-headers.md', title: 'Caching headers' },
      ],
    })
    expect(run.said[0]).toContain('No page is called exactly “HTTP caching”, so I deleted nothing.')
    expect(run.said[0]).toContain('- [HTTP Caching with ETags](/posts/http-caching-with-etags): `/delete posts/http-caching-with-etags.md`')
  })

  it('acts on a name that is exactly one page: its title in any case, or its file name', async () => {
    for (const pageHint of ['http caching with etags', 'http-caching-with-etags', '“HTTP Caching with ETags”']) {
      const blog = createBlog(pages, { graph, search })
      const run = await runSkill(deleteSkill, { inputs: { text: `delete ${pageHint}`, params: { pageHint } }, api: blog.api })
      expect(run.proposals.map((proposal) => proposal.path)).toEqual(['posts/http-caching-with-etags.md'])
      expect(blog.has('posts/http-caching-with-etags.md')).toBe(false)
    }
  })

  it('leaves the open page for its folder’s index before deleting it', async () => {
    const blog = createBlog(pages, { graph })
    const events: string[] = []
    let open = 'posts/old.md'
    removeNavigator = setPageNavigator({ currentFile: () => open, go: async (route) => void (events.push(`go ${route}`), (open = 'posts/index.md')) })
    const api = { ...blog.api, deleteFile: (...args: Parameters<MetaBlogApi['deleteFile']>) => (events.push(`delete on ${open}`), blog.api.deleteFile(...args)) }
    const run = await runSkill(deleteSkill, { inputs: request, api: api as MetaBlogApi })
    expect(run.error).toBeUndefined()
    expect(events).toEqual(['go /posts/', 'delete on posts/index.md'])
  })

  it('goes home when the page has no folder index, and stays put when another page is open', async () => {
    const blog = createBlog(pages, { graph })
    const routes: string[] = []
    removeNavigator = setPageNavigator({ currentFile: () => 'notes/caching-headers.md', go: async (route) => void routes.push(route) })
    await runSkill(deleteSkill, { inputs: { text: '/delete notes/caching-headers.md', params: { path: 'notes/caching-headers.md' } }, api: blog.api })
    expect(routes).toEqual(['/'])
    await runSkill(deleteSkill, { inputs: request, api: blog.api })
    expect(routes).toEqual(['/'])
    expect(blog.has('posts/old.md')).toBe(false)
  })
})

describe('exactMatches', () => {
  const list = [
    { path: 'posts/understanding-etags.md', title: 'Understanding ETags' },
    { path: 'zh/huan-cun.md', title: '缓存' },
    { path: 'notes/etags.md', title: 'ETags' },
  ]

  it('matches a title, a path, a file name or the slug of the words, and nothing merely similar', async () => {
    expect(await exactMatches(list, 'understanding etags')).toEqual([list[0]])
    expect(await exactMatches(list, 'posts/understanding-etags.md')).toEqual([list[0]])
    expect(await exactMatches(list, 'understanding-etags')).toEqual([list[0]])
    expect(await exactMatches(list, '缓存')).toEqual([list[1]])
    expect(await exactMatches(list, 'etags')).toEqual([list[2]])
    expect(await exactMatches(list, 'understanding')).toEqual([])
    expect(await exactMatches(list, 'HTTP caching')).toEqual([])
  })
})
