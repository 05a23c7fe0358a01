import { describe, expect, it } from 'vitest'
import { parseSessionLog, summarizeSession } from '../../../../server/sessions/session-log.js'

const line = (entry: object) => JSON.stringify({ v: 1, at: '2026-11-25T08:00:00.000Z', ...entry })
const user = line({ type: 'user', text: '  Make it\n shorter  ' })
const answer = line({ type: 'assistant', text: 'Done.', at: '2026-11-25T08:01:00.000Z' })

describe('parseSessionLog', () => {
  it('reads an empty file as no entries, nothing skipped', () => {
    expect(parseSessionLog('')).toEqual({ entries: [], skipped: [] })
    expect(parseSessionLog('\n\n')).toEqual({ entries: [], skipped: [] })
  })

  it('skips a truncated last line (a torn append) and keeps the rest', () => {
    const torn = `${user}\n${answer}\n${answer.slice(0, 20)}`
    const parsed = parseSessionLog(torn)
    expect(parsed.entries.map((entry) => entry.type)).toEqual(['user', 'assistant'])
    expect(parsed.skipped).toEqual([{ line: 3, reason: expect.stringMatching(/not JSON/) }])
  })

  it('skips a garbage line and a JSON line that is not an entry, anywhere in the file', () => {
    const text = `${user}\n\u0000garbage{{\n${JSON.stringify({ v: 1, type: 'user' })}\n${answer}\n`
    const parsed = parseSessionLog(text)
    expect(parsed.entries).toHaveLength(2)
    expect(parsed.skipped.map((skipped) => skipped.line)).toEqual([2, 3])
    expect(parsed.skipped[1]!.reason).toMatch(/"at"/)
  })

  it('skips a line longer than the limit without parsing it, and reads one just under it', () => {
    const big = line({ type: 'assistant', text: 'x'.repeat(1000) })
    const parsed = parseSessionLog(`${user}\n${big}\n${answer}\n`, big.length - 1)
    expect(parsed.entries.map((entry) => entry.type)).toEqual(['user', 'assistant'])
    expect(parsed.skipped).toEqual([{ line: 2, reason: expect.stringMatching(/longer than/) }])
    expect(parseSessionLog(`${big}\n`, big.length).entries).toHaveLength(1)
  })

  it('reads a huge log (5 MiB line among others) in linear time', () => {
    const huge = line({ type: 'assistant', text: 'y'.repeat(5 * 1024 * 1024) })
    const started = performance.now()
    const parsed = parseSessionLog(`${user}\n${huge}\n${answer}\n`)
    expect(parsed.entries).toHaveLength(2)
    expect(parsed.skipped).toHaveLength(1)
    expect(performance.now() - started).toBeLessThan(2000)
  })
})

describe('summarizeSession', () => {
  it('titles by the first user message, sums the cost, spans first to last entry', () => {
    const { entries } = parseSessionLog(
      [
        line({ type: 'meta', mode: 'ask', at: '2026-11-25T07:59:00.000Z' }),
        user,
        line({ type: 'usage', promptTokens: 10, completionTokens: 2, cost: 0.25, model: 'm' }),
        line({ type: 'user', text: 'second' }),
        line({ type: 'usage', promptTokens: 10, completionTokens: 2, cost: 0.5, model: 'm' }),
        answer,
      ].join('\n'),
    )
    expect(summarizeSession('s1', entries, 'unused')).toEqual({
      id: 's1',
      title: 'Make it shorter',
      createdAt: '2026-11-25T07:59:00.000Z',
      updatedAt: '2026-11-25T08:01:00.000Z',
      entries: 6,
      cost: 0.75,
    })
    expect(summarizeSession('empty', [], '2026-01-01T00:00:00.000Z')).toMatchObject({ title: '', createdAt: '2026-01-01T00:00:00.000Z', entries: 0, cost: 0 })
  })
})
