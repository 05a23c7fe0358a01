import { describe, expect, it, vi } from 'vitest'
import { CostTracker } from '../../../../client/runtime/cost-tracker'

const prices = {
  'gpt-4o-mini': { input: 0.15, output: 0.6 },
  'GPT-4o': { input: 2.5, output: 10 },
}

describe('CostTracker', () => {
  it('prices a call from the table, per million tokens', () => {
    const tracker = new CostTracker({ prices })
    const record = tracker.record('task-1', 'gpt-4o-mini', { promptTokens: 1_000_000, completionTokens: 500_000 })
    expect(record).toEqual({ taskId: 'task-1', model: 'gpt-4o-mini', promptTokens: 1_000_000, completionTokens: 500_000, cost: 0.45 })
  })

  it('finds prices with the one lookup rule (priceFor): case, provider prefix, snapshot suffix', () => {
    const tracker = new CostTracker({ prices })
    expect(tracker.priceOf('gpt-4o')).toEqual({ input: 2.5, output: 10 })
    expect(tracker.priceOf('openai/GPT-4o-mini')).toEqual({ input: 0.15, output: 0.6 })
    expect(tracker.priceOf('gpt-4o-mini-2024-07-18')).toEqual({ input: 0.15, output: 0.6 })
    expect(tracker.priceOf('gpt-4o-mini-latest')).toEqual({ input: 0.15, output: 0.6 })
    expect(tracker.priceOf('llama3.1:8b')).toBeNull()
  })

  it('keeps per-task totals for the last 50 tasks only; the session keeps everything', () => {
    const tracker = new CostTracker({ prices })
    for (let index = 0; index < 60; index++) tracker.record(`task-${index}`, 'gpt-4o', { promptTokens: 10, completionTokens: 0 })
    tracker.record('task-5', 'gpt-4o', { promptTokens: 10, completionTokens: 0 })
    expect(tracker.task('task-0').calls).toBe(0)
    expect(tracker.task('task-10').calls).toBe(0)
    expect(tracker.task('task-11').calls).toBe(1)
    expect(tracker.task('task-59').calls).toBe(1)
    expect(tracker.task('task-5').calls).toBe(1)
    expect(tracker.session().calls).toBe(61)
  })

  it('sums per task and per session separately', () => {
    const tracker = new CostTracker({ prices })
    tracker.record('a', 'gpt-4o', { promptTokens: 1000, completionTokens: 100 })
    tracker.record('a', 'gpt-4o', { promptTokens: 2000, completionTokens: 200 })
    tracker.record('b', 'gpt-4o-mini', { promptTokens: 10_000, completionTokens: 0 })
    expect(tracker.task('a')).toEqual({ promptTokens: 3000, completionTokens: 300, totalTokens: 3300, cost: 0.0105, unknownCost: false, unknownTokens: false, calls: 2 })
    expect(tracker.task('b').cost).toBeCloseTo(0.0015, 10)
    expect(tracker.session()).toMatchObject({ promptTokens: 13_000, completionTokens: 300, totalTokens: 13_300, calls: 3, unknownCost: false })
    expect(tracker.session().cost).toBeCloseTo(0.012, 10)
  })

  it('counts the tokens of an unpriced model but marks the cost as partial', () => {
    const tracker = new CostTracker({ prices })
    const record = tracker.record('a', 'llama3.1:8b', { promptTokens: 500, completionTokens: 50 })
    tracker.record('b', 'gpt-4o', { promptTokens: 1_000_000, completionTokens: 0 })
    expect(record.cost).toBeNull()
    expect(tracker.task('a')).toEqual({ promptTokens: 500, completionTokens: 50, totalTokens: 550, cost: 0, unknownCost: true, unknownTokens: false, calls: 1 })
    expect(tracker.task('b').unknownCost).toBe(false)
    expect(tracker.session()).toMatchObject({ totalTokens: 1_000_550, cost: 2.5, unknownCost: true })
  })

  it('uses a cost the caller supplies, including an explicit unknown', () => {
    const tracker = new CostTracker({ prices })
    expect(tracker.record('a', 'gpt-4o', { promptTokens: 10, completionTokens: 10, cost: 0.5 }).cost).toBe(0.5)
    expect(tracker.record('a', 'gpt-4o', { promptTokens: 10, completionTokens: 10, cost: null }).cost).toBeNull()
    expect(tracker.task('a')).toMatchObject({ cost: 0.5, unknownCost: true })
  })

  it('prices later calls with updated prices and keeps earlier costs', () => {
    const tracker = new CostTracker()
    expect(tracker.record('a', 'local', { promptTokens: 1_000_000, completionTokens: 0 }).cost).toBeNull()
    tracker.setPrices({ local: { input: 1, output: 1 } })
    expect(tracker.record('a', 'local', { promptTokens: 1_000_000, completionTokens: 0 }).cost).toBe(1)
    expect(tracker.task('a')).toMatchObject({ cost: 1, unknownCost: true, calls: 2 })
  })

  it('counts a call that reported no usage, with unknown tokens and cost', () => {
    const tracker = new CostTracker({ prices })
    tracker.record('a', 'gpt-4o', { promptTokens: 1_000_000, completionTokens: 0 })
    expect(tracker.record('a', 'gpt-4o', null)).toEqual({ taskId: 'a', model: 'gpt-4o', promptTokens: null, completionTokens: null, cost: null })
    expect(tracker.task('a')).toEqual({ promptTokens: 1_000_000, completionTokens: 0, totalTokens: 1_000_000, cost: 2.5, unknownCost: true, unknownTokens: true, calls: 2 })
    expect(tracker.session()).toMatchObject({ calls: 2, unknownCost: true, unknownTokens: true })
  })

  it('treats missing or nonsensical counts from upstream as zero', () => {
    const tracker = new CostTracker({ prices })
    const usage = { promptTokens: Number.NaN, completionTokens: -5 }
    expect(tracker.record('a', 'gpt-4o', usage)).toMatchObject({ promptTokens: 0, completionTokens: 0, cost: 0 })
  })

  it('reports an unknown task as empty and keeps the session total after forget()', () => {
    const tracker = new CostTracker({ prices })
    expect(tracker.task('nope')).toEqual({ promptTokens: 0, completionTokens: 0, totalTokens: 0, cost: 0, unknownCost: false, unknownTokens: false, calls: 0 })
    tracker.record('a', 'gpt-4o', { promptTokens: 1_000_000, completionTokens: 0 })
    tracker.forget('a')
    expect(tracker.task('a').calls).toBe(0)
    expect(tracker.session().cost).toBe(2.5)
  })

  it('notifies subscribers with snapshots until they unsubscribe', () => {
    const tracker = new CostTracker({ prices })
    const listener = vi.fn()
    const unsubscribe = tracker.subscribe(listener)
    tracker.record('a', 'gpt-4o', { promptTokens: 1_000_000, completionTokens: 0 })
    expect(listener).toHaveBeenCalledWith({
      record: { taskId: 'a', model: 'gpt-4o', promptTokens: 1_000_000, completionTokens: 0, cost: 2.5 },
      task: expect.objectContaining({ cost: 2.5, calls: 1 }),
      session: expect.objectContaining({ cost: 2.5, calls: 1 }),
    })
    const snapshot = listener.mock.calls[0]?.[0]
    tracker.record('a', 'gpt-4o', { promptTokens: 1_000_000, completionTokens: 0 })
    expect(snapshot.task.calls).toBe(1)
    unsubscribe()
    tracker.record('a', 'gpt-4o', { promptTokens: 1, completionTokens: 1 })
    expect(listener).toHaveBeenCalledTimes(2)
  })

  it('returns copies, not its own totals', () => {
    const tracker = new CostTracker({ prices })
    tracker.record('a', 'gpt-4o', { promptTokens: 1, completionTokens: 1 })
    tracker.session().calls = 99
    tracker.task('a').calls = 99
    expect(tracker.session().calls).toBe(1)
    expect(tracker.task('a').calls).toBe(1)
  })
})
