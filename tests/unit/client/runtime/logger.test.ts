import { afterEach, describe, expect, it, vi } from 'vitest'
import { DEBUG_SWITCH, LOG_EVENTS, createLogger, redact } from '../../../../client/runtime/logger'
import type { LogEntry } from '../../../../client/runtime/logger'

afterEach(() => {
  vi.restoreAllMocks()
})

describe('LOG_EVENTS', () => {
  it('names exactly the agent events', () => {
    expect(LOG_EVENTS).toEqual([
      'agent.input.received',
      'agent.intent.parsed',
      'agent.state.changed',
      'agent.skill.started',
      'agent.llm.called',
      'agent.file.saved',
      'agent.tool.called',
      'agent.task.completed',
      'agent.task.cancelled',
      'agent.error',
      'agent.conversation.compacted',
    ])
  })
})

describe('createLogger', () => {
  it('writes structured entries to the sink and the buffer', () => {
    const sink = vi.fn()
    const logger = createLogger({ sink, now: () => 1234 })
    logger.log('agent.intent.parsed', { taskId: 't1', intent: 'summarize', confidence: 0.9 })
    const entry = { taskId: 't1', intent: 'summarize', confidence: 0.9, time: 1234, event: 'agent.intent.parsed', level: 'info' }
    expect(sink).toHaveBeenCalledWith(entry)
    expect(logger.entries()).toEqual([entry])
  })

  it('picks a level per event, which the caller can override', () => {
    const logger = createLogger({ sink: null })
    logger.log('agent.error', { code: 'ERR_STALE' })
    logger.log('agent.llm.called', { model: 'm' })
    logger.log('agent.file.saved', { path: 'a.md' }, 'warn')
    expect(logger.entries().map((entry) => entry.level)).toEqual(['error', 'debug', 'warn'])
  })

  it('drops entries below its level', () => {
    const sink = vi.fn()
    const logger = createLogger({ sink, level: 'info' })
    logger.log('agent.state.changed', { to: 'EXECUTING' })
    logger.log('agent.task.completed', { taskId: 't' })
    expect(sink).toHaveBeenCalledTimes(1)
    expect(logger.entries().map((entry) => entry.event)).toEqual(['agent.task.completed'])
  })

  it('keeps only the last N entries, oldest first', () => {
    const logger = createLogger({ sink: null, capacity: 3 })
    for (let index = 0; index < 7; index++) logger.log('agent.input.received', { index })
    expect(logger.entries().map((entry) => entry.index)).toEqual([4, 5, 6])
    logger.clear()
    expect(logger.entries()).toEqual([])
  })

  it('bounds the default buffer at 500', () => {
    const logger = createLogger({ sink: null })
    for (let index = 0; index < 520; index++) logger.log('agent.input.received', { index })
    const entries = logger.entries()
    expect(entries).toHaveLength(500)
    expect(entries[0]?.index).toBe(20)
    expect(entries.at(-1)?.index).toBe(519)
  })

  it('does not let a field overwrite time, event or level', () => {
    const logger = createLogger({ sink: null, now: () => 5 })
    logger.log('agent.error', { time: 0, event: 'forged', level: 'debug' })
    expect(logger.entries()[0]).toMatchObject({ time: 5, event: 'agent.error', level: 'error' })
  })

  it('redacts before the sink sees anything', () => {
    const seen: LogEntry[] = []
    const logger = createLogger({ sink: (entry) => seen.push(entry) })
    logger.log('agent.llm.called', { apiKey: 'sk-secret', promptTokens: 12 })
    expect(seen[0]).toMatchObject({ apiKey: '[redacted]', promptTokens: 12 })
    expect(JSON.stringify(seen)).not.toContain('sk-secret')
  })

  it('survives a throwing sink and still buffers', () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => {})
    const logger = createLogger({ sink: () => { throw new Error('sink down') } })
    logger.log('agent.task.cancelled', { taskId: 't' })
    expect(logger.entries()).toHaveLength(1)
    expect(error).toHaveBeenCalled()
  })

  it('prints to the console by default only in dev, after the current task: warnings and errors, every entry when asked', async () => {
    const spies = {
      debug: vi.spyOn(console, 'debug').mockImplementation(() => {}),
      info: vi.spyOn(console, 'info').mockImplementation(() => {}),
      warn: vi.spyOn(console, 'warn').mockImplementation(() => {}),
      error: vi.spyOn(console, 'error').mockImplementation(() => {}),
    }
    const printed = () => Object.entries(spies).flatMap(([method, spy]) => spy.mock.calls.map(([label]) => `${method} ${String(label)}`))
    const logEach = (logger: ReturnType<typeof createLogger>) => {
      logger.log('agent.input.received', {})
      logger.log('agent.state.changed', { from: 'IDLE', to: 'EXECUTING' })
      logger.log('agent.error', { where: 'checkpoint', message: 'down' }, 'warn')
      logger.log('agent.error', { message: 'failed' })
    }
    const settle = () => new Promise((resolve) => setTimeout(resolve, 0))

    logEach(createLogger({ dev: false }))
    logEach(createLogger({ dev: true }))
    expect(printed()).toEqual([])
    await settle()
    expect(printed()).toEqual(['warn [metablog] agent.error', 'error [metablog] agent.error'])

    for (const spy of Object.values(spies)) spy.mockClear()
    const storage = new Map([[DEBUG_SWITCH, '1']])
    vi.stubGlobal('localStorage', { getItem: (key: string) => storage.get(key) ?? null })
    try {
      logEach(createLogger({ dev: true }))
    } finally {
      vi.unstubAllGlobals()
    }
    await settle()
    expect(printed()).toEqual(['debug [metablog] agent.state.changed', 'info [metablog] agent.input.received', 'warn [metablog] agent.error', 'error [metablog] agent.error'])
  })

  it('tells subscribers about new entries', () => {
    const logger = createLogger({ sink: null })
    const listener = vi.fn()
    const unsubscribe = logger.subscribe(listener)
    logger.log('agent.skill.started', { skill: 'summarize' })
    unsubscribe()
    logger.log('agent.skill.started', { skill: 'research' })
    expect(listener).toHaveBeenCalledTimes(1)
    expect(listener).toHaveBeenCalledWith(expect.objectContaining({ skill: 'summarize' }))
  })
})

describe('redact', () => {
  it('hides secrets by name but keeps token counts', () => {
    expect(
      redact({ apiKey: 'a', api_key: 'b', token: 'c', authToken: 'd', password: 'e', Authorization: 'f', promptTokens: 3, maxTokens: 9 }),
    ).toEqual({
      apiKey: '[redacted]',
      api_key: '[redacted]',
      token: '[redacted]',
      authToken: '[redacted]',
      password: '[redacted]',
      Authorization: '[redacted]',
      promptTokens: 3,
      maxTokens: 9,
    })
  })

  it('reduces page text to its length and cuts other long strings', () => {
    const page = '# Title\n\n' + 'word '.repeat(1000)
    const result = redact({ content: page, path: 'posts/a.md', note: 'x'.repeat(1000) })
    expect(result.content).toBe(`[${page.length} chars]`)
    expect(result.path).toBe('posts/a.md')
    expect(result.note).toMatch(/^x{200}… \[1000 chars\]$/)
    expect(JSON.stringify(result)).not.toContain('word word')
  })

  it('reaches into nested objects, arrays and errors, and stops at cycles', () => {
    const cycle: Record<string, unknown> = { name: 'loop' }
    cycle.self = cycle
    const error = Object.assign(new Error('bad'), { code: 'ERR_STALE' })
    const result = redact({ request: { headers: { 'x-metablog-token': 'abc' }, body: 'page' }, list: [{ secret: 's' }], error, cycle })
    expect(result).toEqual({
      request: { headers: { 'x-metablog-token': '[redacted]' }, body: '[4 chars]' },
      list: [{ secret: '[redacted]' }],
      error: { name: 'Error', message: 'bad', code: 'ERR_STALE' },
      cycle: { name: 'loop', self: '[…]' },
    })
  })
})
