import { describe, expect, it } from 'vitest'
import type { PageOperations } from '../../../../client/runtime/page-operations'
import { createBlog, runSkill } from '../skills/skill-harness'
import type { Skill } from '../../../../client/runtime/types'

/** Runs `body` as the one step of a skill, with the page operations the runtime gives it. */
async function withPages(body: (pages: PageOperations, blog: ReturnType<typeof createBlog>) => Promise<void>) {
  const blog = createBlog({ 'posts/a.md': { content: 'A one.\n', title: 'A' } })
  const skill: Skill = { name: 'pages', intents: ['pages'], needsModel: false, title: () => 'pages', steps: [{ id: 'one', title: 'One', run: (context) => body(context.pages, blog) }] }
  const run = await runSkill(skill, { api: blog.api, inputs: { text: 'x' } })
  if (run.error) throw run.error
  return run
}

describe('page operations', () => {
  it('update only a page it read, and only the version it read', async () => {
    await withPages(async (pages, blog) => {
      await expect(pages.updatePage('posts/a.md', 'x')).rejects.toMatchObject({ code: 'ERR_NOT_READ' })
      const page = await pages.readPage('posts/a.md')
      expect(pages.lastRead('posts/a.md')).toEqual(page)
      blog.edit('posts/a.md', 'The author wrote this.\n')
      await expect(pages.updatePage('posts/a.md', 'mine')).rejects.toMatchObject({ code: 'ERR_STALE', message: expect.stringMatching(/changed after it was read.*Read it again/s) })
      expect(blog.content('posts/a.md')).toBe('The author wrote this.\n')
      await pages.readPage('posts/a.md')
      await pages.updatePage('posts/a.md', 'mine')
      expect(blog.content('posts/a.md')).toBe('mine')
    })
  })

  it('create only new pages, and delete only the version read', async () => {
    const run = await withPages(async (pages, blog) => {
      await expect(pages.createPage('posts/a.md', 'over it')).rejects.toMatchObject({ code: 'ERR_EXISTS' })
      await pages.createPage('posts/b.md', 'B')
      expect(blog.content('posts/b.md')).toBe('B')
      await expect(pages.deletePage('posts/c.md')).rejects.toMatchObject({ code: 'ERR_NOT_READ' })
      await pages.deletePage('posts/b.md')
      expect(blog.content('posts/b.md')).toBeUndefined()
      expect(pages.expectedHash('posts/b.md')).toBeNull()
    })
    expect(run.created).toEqual(['posts/b.md'])
  })
})
