import { describe, expect, it } from 'vitest'
import type { MetaBlogApi } from '../../../../../client/api/metablog-api'
import {
  ATTACHMENT_LIMIT,
  ATTACHMENTS_TOTAL_LIMIT,
  attachmentNote,
  mentionQuery,
  readAttachments,
  withAttachments,
  withoutMention,
} from '../../../../../client/runtime/conversation/mentions'

describe('the mention being typed', () => {
  it('starts at an "@" after a space or at the start, or at "[[", and ends at the caret', () => {
    expect(mentionQuery('compare with @atom')).toEqual({ trigger: '@', query: 'atom', start: 13 })
    expect(mentionQuery('@')).toEqual({ trigger: '@', query: '', start: 0 })
    expect(mentionQuery('see [[atomic wr')).toEqual({ trigger: '[[', query: 'atomic wr', start: 4 })
    expect(mentionQuery('mail me@example.com')).toBeNull()
    expect(mentionQuery('@atom and more')).toBeNull()
    expect(mentionQuery('see [[done]] now')).toBeNull()
    // The caret decides: a mention before it, text after it.
    expect(mentionQuery('compare @ato with this', 12)).toEqual({ trigger: '@', query: 'ato', start: 8 })
    expect(withoutMention('compare @ato with this', { trigger: '@', query: 'ato', start: 8 }, 12)).toBe('compare with this')
  })
})

describe('attached pages', () => {
  const pages: Record<string, string> = { 'a.md': 'short page', 'b.md': 'b'.repeat(ATTACHMENT_LIMIT + 500), 'c.md': 'c'.repeat(ATTACHMENT_LIMIT), 'd.md': 'd'.repeat(ATTACHMENT_LIMIT) }
  const api = { readFile: async (path: string) => ({ path, content: pages[path]!, hash: 'h' }) } as unknown as MetaBlogApi

  it('are cut to the cap per page and in total, and the note names each truncated page', async () => {
    const attached = await readAttachments(api, ['a.md', 'b.md', 'c.md', 'd.md', 'a.md'])
    expect(attached.map(({ path, truncated, content }) => [path, truncated, content.length])).toEqual([
      ['a.md', false, 10],
      ['b.md', true, ATTACHMENT_LIMIT],
      ['c.md', false, ATTACHMENT_LIMIT],
      ['d.md', true, ATTACHMENTS_TOTAL_LIMIT - 2 * ATTACHMENT_LIMIT - 10],
    ])
    expect(attachmentNote(attached.slice(0, 2))).toBe(`Attached **a.md**, **b.md** (truncated: the first 6,000 of 6,500 characters).`)
    expect(withAttachments('compare them', attached.slice(0, 2))).toMatch(/^compare them\n\nPages the author mentioned[^]*<page path="a.md">\nshort page\n<\/page>\n\n<page path="b.md" truncated="true">/)
    expect(withAttachments('plain', undefined)).toBe('plain')
  })
})
