import { describe, expect, it } from 'vitest'
import { deleteSkill } from '../../../../client/skills/delete'
import { createBlog, runSkill } from './skill-harness'

const pages = {
  'posts/old.md': { title: 'Old Post', content: '# Old Post\n\nBye.\n' },
  'posts/fan.md': { title: 'Fan', content: 'See [[posts/old]].\n' },
}
const graph = {
  nodes: [],
  edges: [{ source: 'posts/fan.md', target: 'posts/old.md' }],
  unresolved: [],
}
const request = { text: '/delete posts/old.md', params: { path: 'posts/old.md' } }

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

  it('keeps the page when the author says no', async () => {
    const blog = createBlog(pages, { graph })
    const run = await runSkill(deleteSkill, { inputs: request, api: blog.api, decisions: [{ action: 'reject' }] })
    expect(blog.has('posts/old.md')).toBe(true)
    expect(run.outputs.get('delete')).toBeNull()
  })

  it('deletes nothing if the page changed since it was read', async () => {
    const blog = createBlog(pages, { graph })
    const confirmed = await runSkill({ ...deleteSkill, steps: deleteSkill.steps.slice(0, 2) }, { inputs: request, api: blog.api })
    blog.edit('posts/old.md', '# Old Post\n\nThe author added this.\n')
    const run = await runSkill(deleteSkill, { inputs: request, api: blog.api, resume: confirmed })
    expect(run.error).toBeUndefined()
    expect(blog.content('posts/old.md')).toContain('The author added this.')
    expect(run.said.at(-1)).toMatch(/changed since I read it, so I deleted nothing/)
  })

  it('explains what to do when there is no page to delete', async () => {
    const blog = createBlog(pages, { graph })
    const run = await runSkill(deleteSkill, { inputs: { text: 'delete the post', params: { path: 'posts/none.md' } }, api: blog.api })
    expect(run.error).toMatchObject({ code: 'ERR_PAGE_NOT_FOUND' })
  })
})
