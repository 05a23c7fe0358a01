import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { performance } from 'node:perf_hooks'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { readJsonBody, sendError, sendJson } from '../../../../server/http.js'
import { createLlmGateway, type LlmGateway, type LlmOptions } from '../../../../server/llm/gateway.js'
import { completionOf, startFakeLlm, type FakeLlm } from '../../../fixtures/fake-llm-server.js'

const KEY = 'sk-gateway-unit-secret-42'
const logs: string[] = []
let fake: FakeLlm
const servers: { close: () => Promise<void> }[] = []

beforeAll(async () => {
  fake = await startFakeLlm()
})

afterEach(async () => {
  for (const server of servers.splice(0)) await server.close()
  fake.reset()
})

afterAll(async () => {
  await fake.close()
  for (const line of logs) expect(line).not.toContain(KEY)
})

/** The gateway on a plain HTTP server, the way the dev server mounts it (minus the gate). */
async function serve(llm: LlmOptions = {}, env: NodeJS.ProcessEnv = {}) {
  const gateway: LlmGateway = createLlmGateway({
    llm: { apiKey: KEY, baseURL: fake.baseURL, model: 'fake-model', ollama: false, retry: { baseDelayMs: 5, maxDelayMs: 20 }, ...llm },
    envDir: '/nonexistent-site',
    log: (message) => logs.push(message),
    env,
  })
  let finished = 0
  const server = http.createServer(async (request, response) => {
    try {
      if (request.url === '/status') return sendJson(response, 200, await gateway.status())
      await gateway.chatCompletions(await readJsonBody(request), response)
    } catch (error) {
      sendError(response, error)
    } finally {
      finished++
    }
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  const handle = {
    gateway,
    /** How many requests the gateway has completely finished with. */
    finished: () => finished,
    url,
    async close() {
      gateway.close()
      server.closeAllConnections()
      await new Promise((resolve) => server.close(resolve))
    },
    async chat(body: object, signal?: AbortSignal) {
      const response = await fetch(`${url}/v1/chat/completions`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
        signal,
      })
      const text = await response.text()
      expect(text).not.toContain(KEY)
      return { status: response.status, headers: response.headers, text, json: text.startsWith('{') ? JSON.parse(text) : null }
    },
    async status() {
      return (await fetch(`${url}/status`)).json()
    },
  }
  servers.push(handle)
  return handle
}

const messages = [{ role: 'user', content: 'Hi' }]

/** The JSON payloads of an SSE text, and the error event if any. */
function events(text: string) {
  const blocks = text.split('\n\n').filter(Boolean)
  return {
    data: blocks.filter((block) => block.startsWith('data: {')).map((block) => JSON.parse(block.slice(6))),
    done: blocks.includes('data: [DONE]'),
    error: blocks.filter((block) => block.startsWith('event: error')).map((block) => JSON.parse(block.split('\ndata: ')[1]!).error)[0],
  }
}

describe('LLM gateway: passing answers through', () => {
  it('streams the upstream events, with the default model filled in and usage asked for', async () => {
    const gateway = await serve()
    fake.enqueue({ text: ['Hel', 'lo'], usage: { prompt_tokens: 3, completion_tokens: 2 } })
    const answer = await gateway.chat({ messages, stream: true })
    expect(answer.status).toBe(200)
    expect(answer.headers.get('content-type')).toBe('text/event-stream; charset=utf-8')
    expect(answer.headers.get('x-request-id')).toBe('req_fake_0')
    const { data, done, error } = events(answer.text)
    expect(done).toBe(true)
    expect(error).toBeUndefined()
    expect(data.map((chunk) => chunk.choices[0]?.delta.content).join('')).toBe('Hello')
    expect(data.at(-1).usage).toEqual({ prompt_tokens: 3, completion_tokens: 2, total_tokens: 5 })
    const sent = fake.chatRequests[0]!
    expect(sent.body).toMatchObject({ model: 'fake-model', stream: true, stream_options: { include_usage: true } })
    expect(sent.headers.authorization).toBe(`Bearer ${KEY}`)
  })

  it('keeps the page’s own model (one the author offers) and stream options', async () => {
    const gateway = await serve({ models: { 'other-model': { tools: true } } })
    await gateway.chat({ model: 'other-model', messages, stream: true, stream_options: { include_obfuscation: false } })
    expect(fake.chatRequests[0]!.body).toMatchObject({ model: 'other-model', stream_options: { include_obfuscation: false, include_usage: true } })
  })

  it('answers non-streamed requests with the upstream JSON as is', async () => {
    const gateway = await serve()
    fake.enqueue({ text: ['Whole answer'] })
    const answer = await gateway.chat({ messages })
    expect(answer.status).toBe(200)
    expect(answer.json).toEqual(completionOf({ text: ['Whole answer'] }, 'fake-model'))
    expect(fake.chatRequests[0]!.body.stream_options).toBeUndefined()
  })

  it('refuses a body that is not a chat request', async () => {
    const gateway = await serve()
    const answer = await gateway.chat({ prompt: 'hi' })
    expect(answer.status).toBe(400)
    expect(answer.json.error.code).toBe('ERR_LLM_BAD_REQUEST')
    expect(fake.chatRequests).toHaveLength(0)
  })
})

describe('LLM gateway: retries before the first byte', () => {
  it('retries 429 and 5xx, then forwards the success', async () => {
    const gateway = await serve()
    fake.enqueue({ status: 429, retryAfter: 0 }, { status: 503 }, { text: ['ok'] })
    const answer = await gateway.chat({ messages, stream: true })
    expect(events(answer.text).done).toBe(true)
    expect(fake.chatRequests).toHaveLength(3)
    expect(logs.some((line) => line.includes('answered 429; retry 1 of 2'))).toBe(true)
  })

  it('retries a connection that drops before any byte, including a stream cut before its first event', async () => {
    const gateway = await serve()
    fake.enqueue({ hangUp: true }, { cutAfter: 0 }, { text: ['ok'] })
    const answer = await gateway.chat({ messages, stream: true })
    expect(events(answer.text).done).toBe(true)
    expect(fake.chatRequests).toHaveLength(3)
  })

  it('stops after maxRetries with a rate-limit error', async () => {
    const gateway = await serve({ retry: { maxRetries: 2, baseDelayMs: 5 } })
    fake.setDefault({ status: 429, retryAfter: 0 })
    const answer = await gateway.chat({ messages, stream: true })
    expect(answer.status).toBe(429)
    expect(answer.json.error.code).toBe('ERR_LLM_RATE_LIMIT')
    expect(fake.chatRequests).toHaveLength(3)
  })

  it('does not wait out a Retry-After beyond the cap', async () => {
    const gateway = await serve({ retry: { maxRetryAfterMs: 1000 } })
    fake.setDefault({ status: 429, retryAfter: 120 })
    const started = performance.now()
    const answer = await gateway.chat({ messages, stream: true })
    expect(performance.now() - started).toBeLessThan(500)
    expect(answer.json.error.message).toContain('asks to wait 120 s')
    expect(fake.chatRequests).toHaveLength(1)
  })

  it('abandons the retry at once when the page goes away', async () => {
    const gateway = await serve({ retry: { baseDelayMs: 400, maxDelayMs: 400 } })
    fake.enqueue({ status: 500 }, { text: ['never'] })
    const controller = new AbortController()
    setTimeout(() => controller.abort(), 100)
    await expect(gateway.chat({ messages, stream: true }, controller.signal)).rejects.toThrow()
    await new Promise((resolve) => setTimeout(resolve, 500))
    expect(fake.chatRequests).toHaveLength(1)
  })

  it('does not retry a bad request, and says what is wrong', async () => {
    const gateway = await serve()
    fake.setDefault({ status: 400, errorMessage: 'temperature must be <= 2' })
    const answer = await gateway.chat({ messages, stream: true, temperature: 9 })
    expect(answer.status).toBe(400)
    expect(answer.json.error).toMatchObject({ code: 'ERR_LLM_BAD_REQUEST' })
    expect(answer.json.error.message).toContain('temperature must be <= 2')
    expect(fake.chatRequests).toHaveLength(1)
  })
})

describe('LLM gateway: failures after the first byte', () => {
  it('ends a stream cut mid-way with an error event and no [DONE]', async () => {
    const gateway = await serve()
    fake.enqueue({ text: ['a', 'b', 'c', 'd'], cutAfter: 3 })
    const { data, done, error } = events((await gateway.chat({ messages, stream: true })).text)
    expect(data).toHaveLength(3)
    expect(done).toBe(false)
    expect(error.code).toBe('ERR_LLM_UPSTREAM')
    expect(fake.chatRequests).toHaveLength(1)
  })

  it('ends a stream that closes without [DONE] with an error event', async () => {
    const gateway = await serve()
    fake.enqueue({ text: ['a', 'b'], omitDone: true })
    const { done, error } = events((await gateway.chat({ messages, stream: true })).text)
    expect(done).toBe(false)
    expect(error.code).toBe('ERR_LLM_UPSTREAM')
    expect(error.message).toContain('no [DONE]')
  })

  it('stops a stalled stream after the idle timeout and closes the upstream', async () => {
    const gateway = await serve({ idleTimeoutMs: 200 })
    fake.enqueue({ text: ['a', 'b', 'c'], stallAfter: 2 })
    const started = performance.now()
    const { data, error } = events((await gateway.chat({ messages, stream: true })).text)
    expect(performance.now() - started).toBeLessThan(1000)
    expect(data).toHaveLength(2)
    expect(error.code).toBe('ERR_LLM_TIMEOUT')
    await fake.waitForClose(fake.chatRequests[0]!, 500)
  })

  it('answers 504 when the upstream stalls before its first event', async () => {
    const gateway = await serve({ idleTimeoutMs: 200 })
    fake.enqueue({ stallAfter: 0 })
    const answer = await gateway.chat({ messages, stream: true })
    expect(answer.status).toBe(504)
    expect(answer.json.error.code).toBe('ERR_LLM_TIMEOUT')
    expect(fake.chatRequests).toHaveLength(1)
  })

  it('lets go of a page that stopped reading and then left', async () => {
    const gateway = await serve()
    // Far more than the socket buffers hold, so the gateway has to wait for the page.
    fake.enqueue({ text: Array.from({ length: 400 }, () => 'x'.repeat(16_384)) })
    const controller = new AbortController()
    const response = await fetch(`${gateway.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ messages, stream: true }),
      signal: controller.signal,
    })
    expect(response.status).toBe(200)
    await new Promise((resolve) => setTimeout(resolve, 200))
    const record = fake.chatRequests[0]!
    controller.abort()
    await fake.waitForClose(record, 1000)
    for (let waited = 0; gateway.finished() === 0 && waited < 1000; waited += 10) await new Promise((resolve) => setTimeout(resolve, 10))
    expect(gateway.finished()).toBe(1)
  })

  it('aborts every upstream call when the gateway closes', async () => {
    const gateway = await serve()
    fake.enqueue({ text: Array.from({ length: 50 }, () => 'x'), chunkDelayMs: 20 })
    const answer = gateway.chat({ messages, stream: true })
    await new Promise((resolve) => setTimeout(resolve, 100))
    gateway.gateway.close()
    const { done, error } = events((await answer).text)
    expect(done).toBe(false)
    expect(error.code).toBe('ERR_LLM_UPSTREAM')
    const record = await fake.waitForClose(fake.chatRequests[0]!, 500)
    expect(record.completed).toBe(false)
  })
})

describe('LLM gateway: configuration and secrets', () => {
  it('answers 503 with the steps when nothing is configured', async () => {
    const gateway = await serve({ apiKey: undefined, baseURL: undefined, model: undefined })
    const answer = await gateway.chat({ messages })
    expect(answer.status).toBe(503)
    expect(answer.json.error.code).toBe('ERR_LLM_UNCONFIGURED')
    expect(answer.json.error.message).toContain('OPENAI_API_KEY=your-key')
    expect(answer.json.error.message).toContain('Restart the dev server')
    const status = await gateway.status()
    expect(status).toMatchObject({ configured: false, provider: null, model: null, baseURLHost: null })
    expect(status.instructions).toContain('OPENAI_API_KEY')
    expect(status.prices['gpt-4o-mini']).toEqual({ input: 0.15, output: 0.6 })
  })

  it('reports what is configured, never the key', async () => {
    const gateway = await serve({ prices: { 'fake-model': { input: 1, output: 2 } } })
    const status = await gateway.status()
    expect(status).toMatchObject({ configured: true, provider: 'openai-compatible', model: 'fake-model', baseURLHost: `127.0.0.1:${fake.port}`, instructions: null })
    expect(status.prices['fake-model']).toEqual({ input: 1, output: 2 })
    expect(JSON.stringify(status)).not.toContain(KEY)
  })

  it('uses a local Ollama when nothing else is configured', async () => {
    const gateway = await serve({ apiKey: undefined, baseURL: undefined, model: undefined, ollama: { baseURL: fake.baseURL } })
    expect(await gateway.status()).toMatchObject({ configured: true, provider: 'ollama', model: 'fake-model' })
    const answer = await gateway.chat({ messages })
    expect(answer.status).toBe(200)
    expect(fake.chatRequests[0]!.headers.authorization).toBe('Bearer no-key')
  })

  it('redacts a key that the upstream echoes back', async () => {
    const gateway = await serve()
    fake.enqueue({ status: 401, echoAuthorization: true })
    const answer = await gateway.chat({ messages, stream: true })
    expect(answer.status).toBe(502)
    expect(answer.json.error.code).toBe('ERR_LLM_AUTH')
    expect(answer.json.error.message).toContain('Bearer [redacted]')
    expect(logs.at(-1)).toContain('refused the API key')
  })

  it('names the host it cannot reach', async () => {
    const dead = await startFakeLlm()
    await dead.close()
    const gateway = await serve({ baseURL: dead.baseURL, retry: { maxRetries: 1, baseDelayMs: 5 } })
    const answer = await gateway.chat({ messages, stream: true })
    expect(answer.status).toBe(502)
    expect(answer.json.error.code).toBe('ERR_LLM_UNREACHABLE')
    expect(answer.json.error.message).toContain(`127.0.0.1:${dead.port}`)
    expect(answer.json.error.message).toContain('ECONNREFUSED')
  })
})
