import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { createLatestRefresh, REFRESH_DELAY_MS } from '../../../../client/knowledge/latest-refresh'
import { deferred, type Deferred } from '../components/assistant-harness'

beforeEach(() => vi.useFakeTimers())
afterEach(() => vi.useRealTimers())

describe('createLatestRefresh', () => {
  it('makes one request for a burst of changes, ~200 ms after the last', async () => {
    const load = vi.fn(async () => 'graph')
    const apply = vi.fn()
    const refresh = createLatestRefresh(load, apply)
    for (let index = 0; index < 5; index++) {
      refresh.schedule()
      await vi.advanceTimersByTimeAsync(50)
    }
    expect(load).not.toHaveBeenCalled()
    await vi.advanceTimersByTimeAsync(REFRESH_DELAY_MS)
    expect(load).toHaveBeenCalledTimes(1)
    expect(apply).toHaveBeenCalledWith('graph')
  })

  it('never lets an older answer replace a newer one', async () => {
    const answers: Deferred<string>[] = []
    const apply = vi.fn()
    const refresh = createLatestRefresh(() => {
      const answer = deferred<string>()
      answers.push(answer)
      return answer.promise
    }, apply)
    const older = refresh.now()
    const newer = refresh.now()
    answers[1]!.resolve('new graph')
    await newer
    answers[0]!.resolve('old graph')
    await older
    expect(apply.mock.calls).toEqual([['new graph']])
  })

  it('keeps the value it has when a load fails or has nothing', async () => {
    const apply = vi.fn()
    await createLatestRefresh(async () => Promise.reject(new Error('offline')), apply).now()
    await createLatestRefresh(async () => null, apply).now()
    expect(apply).not.toHaveBeenCalled()
  })
})
