import { describe, expect, it } from 'vitest'
import { parseToolArguments } from '../../../../client/api/tool-call-json.js'

describe('parseToolArguments', () => {
  it('parses valid arguments untouched, and empty ones as {}', () => {
    expect(parseToolArguments('{"path":"a.md","n":1}')).toEqual({ ok: true, value: { path: 'a.md', n: 1 }, repaired: false })
    expect(parseToolArguments('  ')).toEqual({ ok: true, value: {}, repaired: false })
  })

  it('escapes raw newlines and tabs inside strings', () => {
    expect(parseToolArguments('{"content":"# Title\n\n\tBody"}')).toEqual({ ok: true, value: { content: '# Title\n\n\tBody' }, repaired: true })
  })

  it('drops trailing commas, but not commas inside strings', () => {
    expect(parseToolArguments('{"tags":["a","b",],"note":"x, }",}')).toEqual({ ok: true, value: { tags: ['a', 'b'], note: 'x, }' }, repaired: true })
  })

  it('removes a Markdown code fence', () => {
    expect(parseToolArguments('```json\n{"a":1}\n```')).toEqual({ ok: true, value: { a: 1 }, repaired: true })
  })

  it('unwraps double-encoded JSON', () => {
    expect(parseToolArguments(JSON.stringify(JSON.stringify({ a: 1 })))).toEqual({ ok: true, value: { a: 1 }, repaired: true })
  })

  it('takes the real object out of "{}" or a repeat glued in front', () => {
    expect(parseToolArguments('{}{"a":1}')).toEqual({ ok: true, value: { a: 1 }, repaired: true })
    expect(parseToolArguments('{"a":1}{"a":1}')).toEqual({ ok: true, value: { a: 1 }, repaired: true })
  })

  it('refuses what has more than one meaning or was cut off', () => {
    expect(parseToolArguments('{"a":1}{"a":2}').ok).toBe(false)
    expect(parseToolArguments('{"content":"half an arti').ok).toBe(false)
    expect(parseToolArguments("{'a': 1}").ok).toBe(false)
    expect(parseToolArguments('[1,2]')).toEqual({ ok: false, error: 'The tool arguments are JSON but not an object.' })
  })
})
