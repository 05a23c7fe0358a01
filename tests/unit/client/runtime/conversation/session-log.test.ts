import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import type { SessionEntry, SessionsApi } from '../../../../../client/api/sessions'
import { ApiError } from '../../../../../client/api/errors'
import { FLUSH_DELAY_MS, MAX_BATCH_ENTRIES, RETRY_DELAY_MS, SessionLog } from '../../../../../client/runtime/conversation/session-log'
import { createLogger } from '../../../../../client/runtime/logger'

/** The sessions API as the dev server answers it: each append settles when the test says. */
function scriptedApi() {
  const calls: { id: string; texts: string[]; settle: (error?: Error) => void }[] = []
  const logs = new Map<string, string[]>()
  const api = {
    append: (id: string, entries: SessionEntry[]) =>
      new Promise<void>((resolve, reject) => {
        const texts = entries.map((entry) => (entry as { text: string }).text)
        calls.push({
          id,
          texts,
          settle: (error) => {
            if (error) return reject(error)
            logs.set(id, [...(logs.get(id) ?? []), ...texts])
            resolve()
          },
        })
      }),
  } as unknown as SessionsApi
  return { api, calls, logs }
}

const say = (log: SessionLog, text: string) => log.append({ type: 'user', text })
const unavailable = () => new ApiError('ERR_NETWORK', 'The dev server did not answer.', 0)

beforeEach(() => vi.useFakeTimers())
afterEach(() => vi.useRealTimers())

describe('SessionLog', () => {
  it('keeps the order when a batch fails after the next one was written, and sends both again', async () => {
    const { api, calls, logs } = scriptedApi()
    const logger = createLogger({ sink: null })
    const log = new SessionLog(api, logger, 's-1')
    say(log, 'first')
    await vi.advanceTimersByTimeAsync(FLUSH_DELAY_MS)
    expect(calls.map((call) => call.texts)).toEqual([['first']])
    // The second turn is written and its batch is due while the first is still out.
    say(log, 'second')
    await vi.advanceTimersByTimeAsync(FLUSH_DELAY_MS)
    calls[0]!.settle(unavailable())
    // Nothing is sent past the failed batch: it goes first, with what followed.
    await vi.advanceTimersByTimeAsync(RETRY_DELAY_MS)
    expect(calls.map((call) => call.texts)).toEqual([['first'], ['first', 'second']])
    calls[1]!.settle()
    await vi.advanceTimersByTimeAsync(0)
    expect(logs.get('s-1')).toEqual(['first', 'second'])
    expect(logger.entries().filter((entry) => entry.event === 'agent.error')).toHaveLength(1)
  })

  it('waits 2 s before sending a failed batch again, longer at each failure in a row, and reports the run once', async () => {
    const { api, calls, logs } = scriptedApi()
    const logger = createLogger({ sink: null })
    const log = new SessionLog(api, logger, 's-1')
    say(log, 'kept')
    await vi.advanceTimersByTimeAsync(FLUSH_DELAY_MS)
    calls[0]!.settle(unavailable())
    // An entry written meanwhile does not bring the retry forward.
    say(log, 'meanwhile')
    await vi.advanceTimersByTimeAsync(RETRY_DELAY_MS - 100)
    expect(calls).toHaveLength(1)
    await vi.advanceTimersByTimeAsync(100)
    expect(calls.map((call) => call.texts)).toEqual([['kept'], ['kept', 'meanwhile']])
    calls[1]!.settle(unavailable())
    await vi.advanceTimersByTimeAsync(2 * RETRY_DELAY_MS - 100)
    expect(calls).toHaveLength(2)
    await vi.advanceTimersByTimeAsync(100)
    expect(calls).toHaveLength(3)
    calls[2]!.settle()
    await vi.advanceTimersByTimeAsync(0)
    expect(logs.get('s-1')).toEqual(['kept', 'meanwhile'])
    expect(logger.entries().filter((entry) => entry.event === 'agent.error')).toHaveLength(1)
  })

  it('still sends a failed batch again when something flushes during the wait, or its timer fires a moment early', async () => {
    const { api, calls, logs } = scriptedApi()
    const log = new SessionLog(api, createLogger({ sink: null }), 's-1')
    say(log, 'kept')
    await vi.advanceTimersByTimeAsync(FLUSH_DELAY_MS)
    calls[0]!.settle(unavailable())
    await vi.advanceTimersByTimeAsync(0)
    // A flush inside the wait (a switch of session flushes) sends nothing, and must not cancel the retry.
    await log.flush()
    expect(calls).toHaveLength(1)
    // A timer can fire before the clock reads the retry time (Node counts from the start of its loop turn).
    vi.setSystemTime(Date.now() - 5)
    await vi.advanceTimersByTimeAsync(RETRY_DELAY_MS)
    expect(calls).toHaveLength(1)
    await vi.advanceTimersByTimeAsync(5)
    expect(calls.map((call) => call.texts)).toEqual([['kept'], ['kept']])
    calls[1]!.settle()
    await vi.advanceTimersByTimeAsync(0)
    expect(logs.get('s-1')).toEqual(['kept'])
  })

  it('sends a backlog in requests of at most MAX_BATCH_ENTRIES, in order', async () => {
    const { api, calls, logs } = scriptedApi()
    const log = new SessionLog(api, createLogger({ sink: null }), 's-1')
    say(log, 'entry 0')
    await vi.advanceTimersByTimeAsync(FLUSH_DELAY_MS)
    calls[0]!.settle(unavailable())
    for (let entry = 1; entry < 250; entry++) say(log, `entry ${entry}`)
    await vi.advanceTimersByTimeAsync(RETRY_DELAY_MS)
    for (let request = 1; request <= 3; request++) {
      calls[request]!.settle()
      await vi.advanceTimersByTimeAsync(0)
    }
    expect(calls.slice(1).map((call) => call.texts.length)).toEqual([MAX_BATCH_ENTRIES, MAX_BATCH_ENTRIES, 50])
    expect(logs.get('s-1')).toEqual(Array.from({ length: 250 }, (_, entry) => `entry ${entry}`))
  })

  it('stops, and says to reload, once the dev server no longer takes the page’s token (it restarted)', async () => {
    const { api, calls } = scriptedApi()
    const logger = createLogger({ sink: null })
    const log = new SessionLog(api, logger, 's-1')
    say(log, 'one')
    await vi.advanceTimersByTimeAsync(FLUSH_DELAY_MS)
    calls[0]!.settle(new ApiError('ERR_TOKEN', 'The page token is missing or wrong.', 403))
    say(log, 'two')
    await vi.advanceTimersByTimeAsync(RETRY_DELAY_MS * 2)
    expect(calls).toHaveLength(1)
    expect(logger.entries().find((entry) => entry.event === 'agent.error')?.message).toMatch(/reload the page/)
  })

  it('sends each entry to the session it was written in, across a switch while a batch fails', async () => {
    const { api, calls, logs } = scriptedApi()
    const log = new SessionLog(api, createLogger({ sink: null }), 's-1')
    say(log, 'in one')
    log.switchTo('s-2')
    say(log, 'in two')
    await vi.advanceTimersByTimeAsync(0)
    calls[0]!.settle(unavailable())
    await vi.advanceTimersByTimeAsync(RETRY_DELAY_MS)
    calls.at(-1)!.settle()
    await vi.advanceTimersByTimeAsync(0)
    calls.at(-1)!.settle()
    await vi.advanceTimersByTimeAsync(0)
    expect(Object.fromEntries(logs)).toEqual({ 's-1': ['in one'], 's-2': ['in two'] })
  })

  it('drops a batch the server refuses for what it holds, says so once for the session, and goes on with the next', async () => {
    const { api, calls, logs } = scriptedApi()
    const logger = createLogger({ sink: null })
    const log = new SessionLog(api, logger, 's-1')
    const full = () => new ApiError('ERR_TOO_LARGE', 'This conversation\'s log is full.', 413)
    say(log, 'refused')
    await vi.advanceTimersByTimeAsync(FLUSH_DELAY_MS)
    calls[0]!.settle(full())
    say(log, 'refused too')
    await vi.advanceTimersByTimeAsync(FLUSH_DELAY_MS)
    calls[1]!.settle(full())
    say(log, 'next')
    await vi.advanceTimersByTimeAsync(FLUSH_DELAY_MS)
    calls[2]!.settle()
    await vi.advanceTimersByTimeAsync(0)
    expect(calls.map((call) => call.texts)).toEqual([['refused'], ['refused too'], ['next']])
    expect(logs.get('s-1')).toEqual(['next'])
    const warnings = logger.entries().filter((entry) => entry.event === 'agent.error')
    expect(warnings).toHaveLength(1)
    expect(warnings[0]!.message).toMatch(/not logged/)
  })

  it('stops quietly on a dev server without session routes', async () => {
    const { api, calls } = scriptedApi()
    const log = new SessionLog(api, createLogger({ sink: null }), 's-1')
    say(log, 'one')
    await vi.advanceTimersByTimeAsync(FLUSH_DELAY_MS)
    calls[0]!.settle(new ApiError('ERR_NOT_FOUND', 'No such route.', 404))
    say(log, 'two')
    await vi.advanceTimersByTimeAsync(RETRY_DELAY_MS * 2)
    expect(calls).toHaveLength(1)
  })
})
