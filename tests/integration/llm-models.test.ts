import fs from 'node:fs/promises'
import path from 'node:path'
import OpenAI from 'openai'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createLlmClient } from '../../client/api/llm-client.js'
import { listModels } from '../../server/llm/model-list.js'
import { startFakeLlm, type FakeLlm } from '../fixtures/fake-llm-server.js'
import { copySite, startDevServer, type DevServer } from '../helpers/dev-server.js'

const KEY = 'sk-metablog-models-4c1e9a7b3d2f'
const MODEL = 'fake-model'
const NO_LLM_ENV = { OPENAI_API_KEY: undefined, OPENAI_BASE_URL: undefined, METABLOG_MODEL: undefined }

let fake: FakeLlm
let dev: DevServer

beforeAll(async () => {
  fake = await startFakeLlm({ requireKey: KEY, models: ['zeta-large', MODEL, 'alpha-small'] })
  const root = await copySite()
  await fs.writeFile(path.join(root, '.env'), `OPENAI_API_KEY=${KEY}\nOPENAI_BASE_URL=${fake.baseURL}\nMETABLOG_MODEL=${MODEL}\n`)
  dev = await startDevServer({ root, env: { ...NO_LLM_ENV, METABLOG_TEST_LLM: JSON.stringify({ ollama: false }) } })
}, 120_000)

afterAll(async () => {
  await dev?.close()
  await fake?.close()
})

describe('GET /llm/models on the real dev server', () => {
  it('lists the provider models through the key the server holds, the configured one first', async () => {
    const response = await dev.api('/llm/models')
    expect(response.status).toBe(200)
    expect(response.json).toEqual({ models: [MODEL, 'alpha-small', 'zeta-large'], current: MODEL, listed: true })
    const listing = fake.requests.filter((record) => record.path === '/v1/models').at(-1)
    expect(listing?.headers.authorization).toBe(`Bearer ${KEY}`)
    expect(response.text).not.toContain(KEY)
  })

  it('is gated by the page token', async () => {
    const response = await dev.api('/llm/models', { headers: { 'x-metablog-token': 'wrong' } })
    expect(response.status).toBe(403)
  })

  it('passes a picked model through to the provider instead of the configured one', async () => {
    fake.enqueue({ text: ['picked'] })
    const client = createLlmClient({ origin: dev.origin, token: dev.token })
    await client.chat.completions.create({ model: 'alpha-small', messages: [{ role: 'user', content: 'Hi' }] })
    expect(fake.chatRequests.at(-1)?.body).toMatchObject({ model: 'alpha-small' })
  })

  it('refuses a model the author did not configure and the provider does not list, before any upstream call', async () => {
    const before = fake.chatRequests.length
    for (const model of ['o1-pro', 'alpha-small-but-expensive', 'ALPHA-SMALL ']) {
      const response = await dev.api('/llm/v1/chat/completions', { method: 'POST', json: { model, messages: [{ role: 'user', content: 'Hi' }] } })
      expect(response.status, model).toBe(403)
      expect(response.json.error.code).toBe('ERR_LLM_MODEL_NOT_ALLOWED')
      expect(response.json.error.message).toContain('model picker')
    }
    expect(fake.chatRequests.length).toBe(before)
    // The listing was asked again for the unknown names at most once in its cache period, never per request.
    fake.enqueue({ text: ['ok'] })
    const allowed = await dev.api('/llm/v1/chat/completions', { method: 'POST', json: { model: 'Zeta-Large', messages: [{ role: 'user', content: 'Hi' }] } })
    expect(allowed.status).toBe(200)
    expect(fake.chatRequests.at(-1)?.body).toMatchObject({ model: 'Zeta-Large' })
  })
})

describe('listModels falls back to the configured model', () => {
  const config = (baseURL: string) => ({ configured: true as const, provider: 'openai-compatible' as const, baseURL, apiKey: KEY, model: MODEL })

  it('when the provider has no /models route', async () => {
    // The fake answers 404 outside /v1, as a server without a model listing does.
    const baseURL = fake.baseURL.replace(/\/v1$/, '/no-listing')
    const result = await listModels(config(baseURL), new OpenAI({ baseURL, apiKey: KEY, maxRetries: 0 }))
    expect(result).toEqual({ models: [MODEL], current: MODEL, listed: false })
    // The author's llm.models are offered too, after the configured one, whether or not the provider lists.
    const offered = await listModels(config(baseURL), new OpenAI({ baseURL, apiKey: KEY, maxRetries: 0 }), ['deepseek-reasoner', MODEL])
    expect(offered).toEqual({ models: [MODEL, 'deepseek-reasoner'], current: MODEL, listed: false })
  })

  it('when the provider is unreachable', async () => {
    const baseURL = 'http://127.0.0.1:9/v1'
    const result = await listModels(config(baseURL), new OpenAI({ baseURL, apiKey: KEY, maxRetries: 0 }))
    expect(result).toEqual({ models: [MODEL], current: MODEL, listed: false })
  })

  it('offers nothing when no model is configured', async () => {
    expect(await listModels({ configured: false, instructions: 'Set one up.' }, null)).toEqual({ models: [], current: null, listed: false })
  })
})
