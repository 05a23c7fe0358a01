import { describe, expect, it } from 'vitest'
import { pagePath } from '../../../../client/runtime/page-path'
import { MAX_READ_CHARS, readPage } from '../../../../client/tools/read-page'
import type { ToolContext } from '../../../../client/runtime/define-tool'

describe('pagePath', () => {
  it.each([
    ['posts/x.md', 'posts/x.md'],
    ['/posts/x.md', 'posts/x.md'],
    ['./posts/x.md', 'posts/x.md'],
    ['/posts/x', 'posts/x.md'],
    ['posts/x.html', 'posts/x.md'],
    ['/posts/x.html#why', 'posts/x.md'],
    ['/', 'index.md'],
    ['guide/', 'guide/index.md'],
    ['../outside.md', '../outside.md'],
    ['.vitepress/config.md', '.vitepress/config.md'],
  ])('%s → %s', (asked, path) => {
    expect(pagePath(asked)).toBe(path)
  })
})

describe('read_page on a long page', () => {
  const line = 'x'.repeat(99)
  const content = Array.from({ length: 1000 }, () => line).join('\n')
  const context = { pages: { readPage: async (path: string) => ({ path, content, hash: 'h' }) } } as unknown as ToolContext

  it('returns whole lines up to the budget and says where to go on', async () => {
    const first = await readPage.execute({ path: '/posts/long' }, context)
    expect(first).toMatchObject({ path: 'posts/long.md', totalLines: 1000, truncated: true, nextLine: 301 })
    expect(first.content.length).toBeLessThanOrEqual(MAX_READ_CHARS)
    expect(first.content.split('\n')).toHaveLength(300)
    const rest = await readPage.execute({ path: 'posts/long.md', startLine: 301 }, context)
    expect(rest).toMatchObject({ truncated: true, nextLine: 601 })
    expect(await readPage.execute({ path: 'posts/long.md', startLine: 900, endLine: 1000 }, context)).not.toHaveProperty('truncated')
  })
})
