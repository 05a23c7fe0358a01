import { describe, expect, it } from 'vitest'
import type { SessionEntry } from '../../../../../client/api/sessions'
import { messagesFromEntries, sessionMarkdown, turnsFromEntries } from '../../../../../client/runtime/conversation/session-entries'
import { ConversationMemory } from '../../../../../client/runtime/conversation/memory'

const at = '2026-11-25T08:00:00.000Z'
const entry = (value: Record<string, unknown>) => ({ v: 1, at, ...value }) as SessionEntry

describe('a logged conversation read back', () => {
  const entries = [
    entry({ type: 'meta', mode: 'ask', model: 'gpt-4o-mini' }),
    entry({ type: 'user', text: 'draft a post about ETags' }),
    entry({ type: 'recipe', skill: 'write', summary: 'Drafted it.', paths: ['posts/etags.md'] }),
    entry({ type: 'user', text: 'add fsync to atomic writes', mentions: ['posts/atomic.md'] }),
    entry({ type: 'tool-call', callId: 'c1', name: 'edit_page', arguments: { path: 'posts/atomic.md' } }),
    entry({ type: 'tool-result', callId: 'c1', ok: false, summary: 'Edit of posts/atomic.md rejected' }),
    entry({ type: 'assistant', text: 'You rejected it.' }),
    entry({ type: 'usage', promptTokens: 10, completionTokens: 5, cost: 0.5, model: 'gpt-4o-mini' }),
    entry({ type: 'user', text: 'third' }),
    entry({ type: 'compaction', summary: 'They drafted ETags and tried an edit.', keptFrom: 2 }),
    entry({ type: 'assistant', text: 'Third answer.' }),
  ]

  it('becomes the memory it had, compactions applied, so Continue carries the same context', () => {
    const { turns, summary } = turnsFromEntries(entries)
    expect(summary).toBe('They drafted ETags and tried an edit.')
    expect(turns).toEqual([{ request: 'third', answer: 'Third answer.' }])
    const { turns: before } = turnsFromEntries(entries.slice(0, 8))
    expect(before).toEqual([
      { request: 'draft a post about ETags', recipe: { skill: 'write', summary: 'Drafted it.', paths: ['posts/etags.md'] } },
      { request: 'add fsync to atomic writes', mentions: ['posts/atomic.md'], tools: ['Edit of posts/atomic.md rejected (failed)'], answer: 'You rejected it.' },
    ])
    const memory = new ConversationMemory()
    memory.load(turns, summary)
    expect(memory.history()[0]).toMatchObject({ role: 'system', text: expect.stringContaining('They drafted ETags') })
  })

  it('becomes panel messages and Markdown', () => {
    expect(messagesFromEntries('s1', entries).map((message) => message.kind)).toEqual(['user', 'assistant', 'user', 'tool', 'assistant', 'user', 'assistant', 'assistant'])
    const markdown = sessionMarkdown({ id: 's1', title: 'draft a post about ETags', createdAt: at }, entries)
    expect(markdown).toContain('# draft a post about ETags')
    expect(markdown).toContain('## MetaBlog (write)\n\nDrafted it.\n\nPages: posts/etags.md')
    expect(markdown).toContain('- ✗ Edit of posts/atomic.md rejected')
    expect(markdown).toContain('> **Conversation compacted.**')
    expect(markdown).toContain('Cost: $0.5000')
  })
})
