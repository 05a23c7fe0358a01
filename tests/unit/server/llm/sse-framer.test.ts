import { describe, expect, it } from 'vitest'
import { SseFramer } from '../../../../server/llm/sse-framer.js'

const bytes = (text: string) => new TextEncoder().encode(text)
const text = (buffer: Buffer | null) => buffer?.toString('utf8') ?? null

describe('SseFramer', () => {
  it('passes whole events straight through', () => {
    const framer = new SseFramer()
    const chunk = bytes('data: {"a":1}\n\ndata: {"b":2}\n\n')
    expect(text(framer.push(chunk))).toBe('data: {"a":1}\n\ndata: {"b":2}\n\n')
    expect(framer.sawDone).toBe(false)
  })

  it('holds back a partial event until it is complete', () => {
    const framer = new SseFramer()
    expect(text(framer.push(bytes('data: {"a":1}\n\ndata: {"b"')))).toBe('data: {"a":1}\n\n')
    expect(framer.push(bytes(':2}'))).toBeNull()
    expect(text(framer.push(bytes('\n\ndata: [DO')))).toBe('data: {"b":2}\n\n')
    expect(framer.sawDone).toBe(false)
    expect(text(framer.push(bytes('NE]\n\n')))).toBe('data: [DONE]\n\n')
    expect(framer.sawDone).toBe(true)
  })

  it('understands CRLF boundaries', () => {
    const framer = new SseFramer()
    expect(text(framer.push(bytes('data: 1\r\n\r\ndata: [DONE]\r\n\r\n')))).toBe('data: 1\r\n\r\ndata: [DONE]\r\n\r\n')
    expect(framer.sawDone).toBe(true)
  })

  it('does not mistake [DONE] inside content for the end', () => {
    const framer = new SseFramer()
    framer.push(bytes('data: {"content":"data: [DONE]"}\n\n'))
    expect(framer.sawDone).toBe(false)
  })

  it('accepts a final [DONE] without its blank line, and drops any other unfinished event', () => {
    const done = new SseFramer()
    done.push(bytes('data: 1\n\ndata: [DONE]\n'))
    expect(text(done.finish())).toBe('data: [DONE]\n\n\n')
    expect(done.sawDone).toBe(true)
    const cut = new SseFramer()
    cut.push(bytes('data: 1\n\ndata: {"half'))
    expect(cut.finish()).toBeNull()
    expect(cut.sawDone).toBe(false)
  })
})
