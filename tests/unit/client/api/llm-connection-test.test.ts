import { describe, expect, it } from 'vitest'
import { describeConnectionTest } from '../../../../client/api/llm-connection-test.js'

describe('describeConnectionTest', () => {
  it('says the model, host and latency when the round trip worked', () => {
    expect(describeConnectionTest({ ok: true, stage: 'done', model: 'deepseek-chat', host: 'api.deepseek.com', latencyMs: 412, models: [] })).toBe('Connected: reached api.deepseek.com, the key was accepted, and deepseek-chat answered a one-token request in 412 ms.')
  })

  it('says where it stopped and what the gateway advised', () => {
    const refused = { ok: false, stage: 'auth', model: 'gpt-4o-mini', host: 'api.openai.com', latencyMs: null, models: [], error: { code: 'ERR_LLM_AUTH', message: 'Check OPENAI_API_KEY.' } } as const
    expect(describeConnectionTest(refused)).toBe('The key was refused: Check OPENAI_API_KEY.')
  })
})
