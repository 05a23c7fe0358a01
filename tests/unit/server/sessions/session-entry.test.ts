import { describe, expect, it } from 'vitest'
import { checkSessionEntries, checkSessionEntry, checkSessionId } from '../../../../server/sessions/session-entry.js'

const at = '2026-11-25T08:00:00.000Z'

describe('checkSessionEntry', () => {
  it('accepts one valid entry of every type, keeping its fields', () => {
    const valid = [
      { v: 1, at, type: 'user', text: 'Summarize this', currentFile: 'posts/a.md', mentions: ['posts/b.md'] },
      { v: 1, at, type: 'assistant', text: 'Here it is', model: 'gpt-4o-mini' },
      { v: 1, at, type: 'tool-call', callId: 'call_1', name: 'read_page', arguments: '{"path":"posts/a.md"}' },
      { v: 1, at, type: 'tool-result', callId: 'call_1', ok: false, summary: 'ERR_NOT_FOUND' },
      { v: 1, at, type: 'recipe', skill: 'write', summary: 'Drafted a post', paths: ['posts/new.md'] },
      { v: 1, at, type: 'compaction', summary: 'Earlier: asked about ETags', keptFrom: 12 },
      { v: 1, at, type: 'usage', promptTokens: 1200, completionTokens: 80, cost: 0.0004, model: 'gpt-4o-mini' },
      { v: 1, at: '2026-11-25T09:00:00+08:00', type: 'meta', mode: 'plan' },
    ]
    for (const entry of valid) expect(checkSessionEntry(entry)).toEqual(entry)
  })

  it('refuses a wrong version, time, type or field, naming the field', () => {
    const refused: [unknown, RegExp][] = [
      [null, /JSON object/],
      [[], /JSON object/],
      [{ v: 2, at, type: 'user', text: 'x' }, /"v" must be 1/],
      [{ v: 1, at: 'yesterday', type: 'user', text: 'x' }, /"at"/],
      [{ v: 1, at: '2026-13-45T99:00:00Z', type: 'user', text: 'x' }, /"at"/],
      [{ v: 1, at, type: 'system', text: 'x' }, /"type" must be one of/],
      [{ v: 1, at, type: 'toString' }, /"type" must be one of/],
      [{ v: 1, at, type: 'user' }, /"text" must be a string/],
      [{ v: 1, at, type: 'user', text: 'x', mentions: 'posts/b.md' }, /"mentions" must be a list/],
      [{ v: 1, at, type: 'tool-call', callId: 'c', name: 'read_page' }, /"arguments" is required/],
      [{ v: 1, at, type: 'tool-result', callId: 'c', ok: 'yes', summary: '' }, /"ok"/],
      [{ v: 1, at, type: 'compaction', summary: 's', keptFrom: -1 }, /"keptFrom"/],
      [{ v: 1, at, type: 'usage', promptTokens: 1.5, completionTokens: 1, model: 'm' }, /"promptTokens"/],
      [{ v: 1, at, type: 'usage', promptTokens: 1, completionTokens: 1, cost: Number.NaN, model: 'm' }, /"cost"/],
      [{ v: 1, at, type: 'meta', mode: 'yolo' }, /"mode"/],
    ]
    for (const [entry, message] of refused) {
      expect(() => checkSessionEntry(entry), JSON.stringify(entry)).toThrow(message)
    }
  })

  it('checks a whole append body: non-empty, capped, each entry named by index', () => {
    expect(() => checkSessionEntries({})).toThrow(/non-empty list/)
    expect(() => checkSessionEntries({ entries: [] })).toThrow(/non-empty list/)
    const many = Array.from({ length: 3 }, () => ({ v: 1, at, type: 'assistant', text: 'x' }))
    expect(() => checkSessionEntries({ entries: many }, 2)).toThrow(/At most 2 entries/)
    expect(() => checkSessionEntries({ entries: [many[0], { v: 1, at, type: 'assistant' }] })).toThrow(/^entries\[1\] \(assistant\)/)
    expect(() => checkSessionEntries({ entries: [{}] })).toThrow(expect.objectContaining({ code: 'ERR_BAD_REQUEST' }))
  })

  it('takes ids like task ids: letters, digits, "-" and "_"', () => {
    expect(checkSessionId('2026-11-25_abc')).toBe('2026-11-25_abc')
    for (const id of ['', '../x', 'a.b', 'a/b', 'x'.repeat(101), 42]) {
      expect(() => checkSessionId(id)).toThrow(expect.objectContaining({ code: 'ERR_BAD_REQUEST' }))
    }
  })
})
