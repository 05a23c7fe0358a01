import { describe, expect, it } from 'vitest'
import { backoffDelay, retryAfterOf, sleep, withRetries, type RetryPolicy } from '../../../../server/llm/retry.js'

const policy: RetryPolicy = { maxRetries: 2, baseDelayMs: 10, maxDelayMs: 25, maxRetryAfterMs: 1000 }

describe('backoffDelay', () => {
  it('doubles per retry up to the cap, with 0–25 % jitter taken off', () => {
    expect(backoffDelay(0, policy, () => 0)).toBe(10)
    expect(backoffDelay(1, policy, () => 0)).toBe(20)
    expect(backoffDelay(5, policy, () => 0)).toBe(25)
    expect(backoffDelay(1, policy, () => 0.999)).toBe(15)
  })
})

describe('retryAfterOf', () => {
  it('reads retry-after-ms, seconds and HTTP dates', () => {
    expect(retryAfterOf(new Headers({ 'retry-after-ms': '250' }))).toBe(250)
    expect(retryAfterOf(new Headers({ 'retry-after': '2' }))).toBe(2000)
    const now = Date.parse('2025-01-01T00:00:00Z')
    expect(retryAfterOf(new Headers({ 'retry-after': 'Wed, 01 Jan 2025 00:00:03 GMT' }), now)).toBe(3000)
    expect(retryAfterOf(new Headers({ 'retry-after': 'soon' }))).toBeUndefined()
    expect(retryAfterOf(new Headers())).toBeUndefined()
    expect(retryAfterOf(undefined)).toBeUndefined()
  })
})

describe('withRetries', () => {
  it('retries retryable failures, then succeeds', async () => {
    const attempts: number[] = []
    const result = await withRetries(
      async (retry) => {
        attempts.push(retry)
        if (retry < 2) throw new Error('busy')
        return 'ok'
      },
      policy,
      { judge: () => ({ retryable: true }) },
    )
    expect(result).toBe('ok')
    expect(attempts).toEqual([0, 1, 2])
  })

  it('gives up after maxRetries and rethrows the last failure', async () => {
    let count = 0
    const failing = withRetries(
      async () => {
        count++
        throw new Error(`failure ${count}`)
      },
      policy,
      { judge: () => ({ retryable: true }) },
    )
    await expect(failing).rejects.toThrow('failure 3')
    expect(count).toBe(3)
  })

  it('does not retry what is not retryable', async () => {
    let count = 0
    await expect(
      withRetries(async () => {
        count++
        throw new Error('bad request')
      }, policy, { judge: () => ({ retryable: false }) }),
    ).rejects.toThrow('bad request')
    expect(count).toBe(1)
  })

  it('honours Retry-After, and gives up at once when it exceeds the cap', async () => {
    const delays: number[] = []
    let count = 0
    await withRetries(
      async () => {
        if (count++ === 0) throw new Error('429')
        return 'ok'
      },
      policy,
      { judge: () => ({ retryable: true, retryAfterMs: 5 }), onRetry: ({ delayMs }) => delays.push(delayMs) },
    )
    expect(delays).toEqual([5])

    count = 0
    const started = Date.now()
    await expect(
      withRetries(async () => {
        count++
        throw new Error('429 wait a minute')
      }, policy, { judge: () => ({ retryable: true, retryAfterMs: 60_000 }) }),
    ).rejects.toThrow('429 wait a minute')
    expect(count).toBe(1)
    expect(Date.now() - started).toBeLessThan(500)
  })

  it('stops waiting the moment the signal aborts', async () => {
    const controller = new AbortController()
    let count = 0
    const started = Date.now()
    const running = withRetries(
      async () => {
        count++
        throw new Error('busy')
      },
      { ...policy, baseDelayMs: 5_000, maxDelayMs: 5_000 },
      { judge: () => ({ retryable: true }), signal: controller.signal },
    )
    setTimeout(() => controller.abort(new Error('page left')), 30)
    await expect(running).rejects.toThrow('page left')
    expect(count).toBe(1)
    expect(Date.now() - started).toBeLessThan(1000)
  })

  it('sleep rejects at once on an already aborted signal', async () => {
    await expect(sleep(10_000, AbortSignal.abort(new Error('gone')))).rejects.toThrow('gone')
  })
})
