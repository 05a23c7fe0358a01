import OpenAI from 'openai'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { CostTracker } from '../../../../client/runtime/cost-tracker'
import { createLogger, type LogEntry } from '../../../../client/runtime/logger'
import { createModelPort } from '../../../../client/runtime/model-port'
import { startFakeLlm, type FakeLlm } from '../../../fixtures/fake-llm-server.js'
import { clientWithoutUsage } from './usage-clients'

let fake: FakeLlm

beforeAll(async () => {
  fake = await startFakeLlm()
})
afterEach(() => fake.reset())
afterAll(async () => {
  await fake.close()
})

function portFor(client: OpenAI, costs: CostTracker, logged: LogEntry[] = []) {
  const logger = createLogger({ sink: (entry) => logged.push(entry) })
  return createModelPort({ client, model: 'gpt-4o-mini', taskId: 'task-1', signal: new AbortController().signal, costs, logger })
}

describe('createModelPort', () => {
  it('records each call with its usage and price', async () => {
    const costs = new CostTracker({ prices: { 'gpt-4o-mini': { input: 0.15, output: 0.6 } } })
    const client = new OpenAI({ baseURL: fake.baseURL, apiKey: 'test', maxRetries: 0 })
    fake.enqueue({ text: ['Hi'], usage: { prompt_tokens: 1_000_000, completion_tokens: 0 } })
    expect(await portFor(client, costs).complete({ messages: [{ role: 'user', content: 'Hi' }] })).toBe('Hi')
    expect(costs.task('task-1')).toMatchObject({ totalTokens: 1_000_000, cost: 0.15, calls: 1, unknownCost: false, unknownTokens: false })
  })

  it('counts a call whose provider sends no usage locally, priced and marked as an estimate', async () => {
    const costs = new CostTracker({ prices: { 'gpt-4o-mini': { input: 0.15, output: 0.6 } } })
    const logged: LogEntry[] = []
    fake.enqueue({ text: ['Hi'] })
    expect(await portFor(clientWithoutUsage(fake.baseURL), costs, logged).complete({ messages: [{ role: 'user', content: 'Hi' }] })).toBe('Hi')
    // "Hi" is one token by the 4-characters rule, plus 4 for the message's framing.
    const cost = (5 * 0.15 + 1 * 0.6) / 1_000_000
    expect(costs.task('task-1')).toEqual({ promptTokens: 5, completionTokens: 1, totalTokens: 6, cost, unknownCost: false, unknownTokens: false, calls: 1, estimated: true })
    expect(costs.session()).toMatchObject({ calls: 1, unknownTokens: false, estimated: true })
    expect(logged.find((entry) => entry.event === 'agent.llm.called')).toMatchObject({ taskId: 'task-1', promptTokens: 5, completionTokens: 1, estimated: true })
  })

  it('records nothing for a call that failed', async () => {
    const costs = new CostTracker()
    fake.enqueue({ status: 500 })
    const client = new OpenAI({ baseURL: fake.baseURL, apiKey: 'test', maxRetries: 0 })
    await expect(portFor(client, costs).complete({ messages: [{ role: 'user', content: 'Hi' }] })).rejects.toThrow()
    expect(costs.session().calls).toBe(0)
  })
})
