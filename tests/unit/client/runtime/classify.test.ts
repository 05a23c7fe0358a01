import OpenAI from 'openai'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { CLASSIFY_TASK_ID, classifyWithModel } from '../../../../client/runtime/classify'
import { CostTracker } from '../../../../client/runtime/cost-tracker'
import { createLogger } from '../../../../client/runtime/logger'
import { startFakeLlm, type FakeLlm } from '../../../fixtures/fake-llm-server.js'
import { clientWithoutUsage } from './usage-clients'

let fake: FakeLlm
let client: OpenAI

beforeAll(async () => {
  fake = await startFakeLlm()
  client = new OpenAI({ baseURL: fake.baseURL, apiKey: 'test', maxRetries: 0 })
})
afterEach(() => fake.reset())
afterAll(async () => {
  await fake.close()
})

const answer = '{"intent": "summarize", "confidence": 0.9, "params": {}}'
const meterWith = (costs: CostTracker) => ({ costs, logger: createLogger({ sink: null }), model: 'gpt-4o-mini' })

describe('classifyWithModel', () => {
  it('returns the JSON object in the answer', async () => {
    fake.enqueue({ text: ['Sure: ', answer] })
    expect(await classifyWithModel(client, 'sum it up', {})).toBe(answer)
  })

  it('counts its call in the session, under its own pseudo-task', async () => {
    const costs = new CostTracker({ prices: { 'gpt-4o-mini': { input: 0.15, output: 0.6 } } })
    costs.record('task-1', 'gpt-4o-mini', { promptTokens: 10, completionTokens: 10 })
    fake.enqueue({ text: [answer], usage: { prompt_tokens: 1_000_000, completion_tokens: 0 } })
    await classifyWithModel(client, 'sum it up', {}, undefined, meterWith(costs))
    expect(costs.task(CLASSIFY_TASK_ID)).toMatchObject({ totalTokens: 1_000_000, cost: 0.15, calls: 1 })
    expect(costs.task('task-1').calls).toBe(1)
    expect(costs.session()).toMatchObject({ totalTokens: 1_000_020, calls: 2, unknownCost: false })
  })

  it('counts a call with no usage as one of unknown cost', async () => {
    const costs = new CostTracker({ prices: { 'gpt-4o-mini': { input: 0.15, output: 0.6 } } })
    fake.enqueue({ text: [answer] })
    await classifyWithModel(clientWithoutUsage(fake.baseURL), 'sum it up', {}, undefined, meterWith(costs))
    expect(costs.session()).toMatchObject({ calls: 1, unknownCost: true, unknownTokens: true })
  })
})
