import net, { type AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createOllamaProbe, listLocalModels } from '../../../../server/llm/ollama.js'
import { startFakeLlm, type FakeLlm } from '../../../fixtures/fake-llm-server.js'

let fake: FakeLlm

beforeAll(async () => {
  fake = await startFakeLlm({ models: ['llama3.1:8b', 'qwen2.5'] })
})

afterAll(async () => {
  await fake.close()
})

// A port nothing listens on: the fake's, once closed.
async function deadBaseURL(): Promise<string> {
  const dead = await startFakeLlm()
  await dead.close()
  return dead.baseURL
}

describe('Ollama probe', () => {
  it('lists the models of a local OpenAI-compatible server', async () => {
    expect(await listLocalModels(fake.baseURL, 3000)).toEqual(['llama3.1:8b', 'qwen2.5'])
  })

  it('uses the first model, or METABLOG_MODEL, and remembers a success', async () => {
    fake.reset()
    const probe = createOllamaProbe({ baseURL: fake.baseURL }, '/site', undefined)
    expect(await probe()).toEqual({ configured: true, provider: 'ollama', baseURL: fake.baseURL, apiKey: null, model: 'llama3.1:8b' })
    await probe()
    expect(fake.requests).toHaveLength(1)
    const chosen = createOllamaProbe({ baseURL: fake.baseURL }, '/site', 'qwen2.5')
    expect(await chosen()).toMatchObject({ model: 'qwen2.5' })
  })

  it('gives up quickly when nothing answers, and tries again only after a while', async () => {
    let now = 0
    const probe = createOllamaProbe({ baseURL: await deadBaseURL(), probeTimeoutMs: 300, retryAfterMs: 1000 }, '/site', undefined, () => now)
    const started = Date.now()
    const first = await probe()
    expect(Date.now() - started).toBeLessThan(1000)
    expect(first.configured).toBe(false)
    expect(!first.configured && first.instructions).toContain('OPENAI_API_KEY')
    now = 500
    expect(await probe()).toBe(first)
    now = 1500
    expect(await probe()).not.toBe(first)
  })

  it('times out on a server that accepts but never answers', async () => {
    const silent = net.createServer(() => {})
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve))
    const { port } = silent.address() as AddressInfo
    const started = Date.now()
    expect(await listLocalModels(`http://127.0.0.1:${port}/v1`, 200)).toBeNull()
    const elapsed = Date.now() - started
    expect(elapsed).toBeGreaterThanOrEqual(150)
    expect(elapsed).toBeLessThan(1000)
    silent.close()
  })

  it('tells the author to pull a model when Ollama has none', async () => {
    const empty = await startFakeLlm({ models: [] })
    const result = await createOllamaProbe({ baseURL: empty.baseURL }, '/site', undefined)()
    expect(!result.configured && result.instructions).toContain('ollama pull')
    await empty.close()
  })
})
