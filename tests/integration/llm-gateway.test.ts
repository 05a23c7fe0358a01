import fs from 'node:fs/promises'
import path from 'node:path'
import { performance } from 'node:perf_hooks'
import OpenAI from 'openai'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { createLlmClient } from '../../client/api/llm-client.js'
import { LlmError } from '../../client/api/llm-error.js'
import { streamChat, type ChatEvent } from '../../client/api/stream-chat.js'
import { startFakeLlm, type FakeLlm, type FakeReply } from '../fixtures/fake-llm-server.js'
import { KEY_FORMS } from '../fixtures/key-forms.js'
import { copySite, startDevServer, type DevServer } from '../helpers/dev-server.js'
import { waitForQuietEventLoop, watchEventLoop } from '../helpers/event-loop.js'

const KEY = 'sk-metablog-integration-7f3a9c1e5b2d'
const MODEL = 'fake-model'
// Short retries and timeouts keep the suite fast; the fixture config passes these to the plugin.
const LLM_OPTIONS = { ollama: false, retry: { maxRetries: 2, baseDelayMs: 20, maxDelayMs: 100, maxRetryAfterMs: 2000 }, idleTimeoutMs: 500 }
const NO_LLM_ENV = { OPENAI_API_KEY: undefined, OPENAI_BASE_URL: undefined, METABLOG_MODEL: undefined }

let fake: FakeLlm
let dev: DevServer
let unconfigured: DevServer
let gatewayClient: OpenAI
let directClient: OpenAI

// Every response body and every line printed while the suite runs, scanned for the key at the end.
const captured: string[] = []
const pendingCaptures: Promise<unknown>[] = []
const restoreOutput: (() => void)[] = []

function captureOutput() {
  for (const method of ['log', 'info', 'warn', 'error', 'debug'] as const) {
    const original = console[method]
    console[method] = (...args: unknown[]) => {
      captured.push(args.map(String).join(' '))
      original.apply(console, args)
    }
    restoreOutput.push(() => (console[method] = original))
  }
  for (const stream of [process.stdout, process.stderr]) {
    const original = stream.write
    stream.write = function (this: NodeJS.WriteStream, chunk: unknown, ...rest: unknown[]) {
      captured.push(String(chunk))
      return (original as (...args: unknown[]) => boolean).call(this, chunk, ...rest)
    } as typeof stream.write
    restoreOutput.push(() => (stream.write = original))
  }
}

const recordingFetch: typeof fetch = async (input, init) => {
  const response = await fetch(input, init)
  pendingCaptures.push(response.clone().text().then((text) => captured.push(text), () => {}))
  return response
}

async function api(server: DevServer, route: string, init?: Parameters<DevServer['api']>[1]) {
  const response = await server.api(route, init)
  captured.push(response.text)
  return response
}

beforeAll(async () => {
  captureOutput()
  fake = await startFakeLlm({ requireKey: KEY })
  // The key reaches the plugin the way an author's does: from .env beside the site.
  const root = await copySite()
  await fs.writeFile(path.join(root, '.env'), `OPENAI_API_KEY=${KEY}\nOPENAI_BASE_URL=${fake.baseURL}\nMETABLOG_MODEL=${MODEL}\n`)
  dev = await startDevServer({ root, env: { ...NO_LLM_ENV, METABLOG_TEST_LLM: JSON.stringify(LLM_OPTIONS) } })
  unconfigured = await startDevServer({ env: { ...NO_LLM_ENV, METABLOG_TEST_LLM: JSON.stringify({ ollama: false }) } })
  gatewayClient = createLlmClient({ origin: dev.origin, token: dev.token, fetch: recordingFetch })
  directClient = new OpenAI({ baseURL: fake.baseURL, apiKey: KEY, maxRetries: 0 })
})

// How many upstream requests carried the key: the scan at the end means something only if some did.
let keyedRequests = 0

afterEach(() => {
  keyedRequests += fake.requests.filter((record) => record.headers.authorization === `Bearer ${KEY}`).length
  fake.reset()
})

let closed = false

afterAll(async () => {
  if (!closed) await dev?.close()
  await unconfigured?.close()
  await fake?.close()
  for (const restore of restoreOutput) restore()
})

const messages = [{ role: 'user' as const, content: 'Write a haiku about ETags.' }]

async function collect(events: AsyncIterable<ChatEvent>, seen: ChatEvent[] = []): Promise<ChatEvent[]> {
  for await (const event of events) seen.push(event)
  return seen
}

describe('LLM gateway on the real dev server', () => {
  it('GET /llm/status says what is configured, never the key', async () => {
    const response = await api(dev, '/llm/status')
    expect(response.status).toBe(200)
    expect(response.json).toMatchObject({ configured: true, provider: 'openai-compatible', model: MODEL, baseURLHost: `127.0.0.1:${fake.port}`, instructions: null })
    expect(response.json.prices['deepseek-chat']).toEqual({ input: 0.28, output: 0.42 })
    expect(response.text).not.toContain(KEY)
  })

  it('gives the official client the same non-streamed answer as the upstream itself', async () => {
    const reply: FakeReply = { text: ['Strong ', 'validators'], reasoning: ['Hmm.'], usage: { prompt_tokens: 9, completion_tokens: 2 } }
    fake.enqueue(reply, reply)
    const direct = await directClient.chat.completions.create({ model: MODEL, messages })
    const through = await gatewayClient.chat.completions.create({ model: MODEL, messages })
    expect(through).toEqual(direct)
    expect(through.choices[0]!.message.content).toBe('Strong validators')
    expect(fake.chatRequests[1]!.body).toEqual(fake.chatRequests[0]!.body)
    expect(fake.chatRequests[1]!.headers.authorization).toBe(`Bearer ${KEY}`)
  })

  it('gives the official client the same stream as the upstream itself', async () => {
    const reply: FakeReply = {
      reasoning: ['Let me ', 'think.'],
      text: Array.from({ length: 20 }, (_, index) => `word${index} `),
      toolCalls: [{ id: 'call_1', name: 'write_page', arguments: '{"path":"etags.md"}' }],
      usage: { prompt_tokens: 11, completion_tokens: 23 },
    }
    fake.enqueue(reply, reply)
    const request = { model: MODEL, messages, stream: true as const, stream_options: { include_usage: true } }
    const direct = []
    for await (const chunk of await directClient.chat.completions.create(request)) direct.push(chunk)
    const through = []
    for await (const chunk of await gatewayClient.chat.completions.create(request)) through.push(chunk)
    expect(through).toEqual(direct)
    expect(through).toHaveLength(1 + 2 + 20 + 1 + 3 + 1 + 1)
    expect(fake.chatRequests[1]!.body).toEqual(fake.chatRequests[0]!.body)
  })

  it('fills in the configured model and asks the upstream for usage', async () => {
    fake.enqueue({ text: ['ok'], usage: { prompt_tokens: 5, completion_tokens: 1 } })
    const events = await collect(streamChat(gatewayClient, { messages }))
    expect(fake.chatRequests[0]!.body).toMatchObject({ model: MODEL, stream: true, stream_options: { include_usage: true } })
    expect(events).toEqual([
      { type: 'text', text: 'ok' },
      { type: 'usage', usage: { prompt_tokens: 5, completion_tokens: 1, total_tokens: 6 } },
      { type: 'finish', reason: 'stop' },
    ])
  })

  it('closes the upstream connection within 100 ms of the page aborting mid-stream', async () => {
    /** Streams, aborts after five tokens, and measures until the fake sees its connection close. */
    async function abortMidStream() {
      fake.reset()
      fake.enqueue({ text: Array.from({ length: 200 }, () => 'x'), chunkDelayMs: 10 })
      const controller = new AbortController()
      let texts = 0
      let abortedAt = 0
      const running = collect(
        (async function* () {
          for await (const event of streamChat(gatewayClient, { messages }, { signal: controller.signal })) {
            yield event
            if (event.type === 'text' && ++texts === 5) {
              abortedAt = performance.now()
              controller.abort()
            }
          }
        })(),
      )
      await expect(running).rejects.toMatchObject({ name: 'AbortError' })
      const record = await fake.waitForClose(fake.chatRequests[0]!, 1000)
      expect(record.completed).toBe(false)
      expect(record.sentAt.length).toBeLessThan(200)
      return record.closedAt! - abortedAt
    }
    // The dev server shares this event loop; a stall of its own (dependency optimisation) is not
    // the gateway's latency, so such a run is measured again, at most three times.
    let latencyMs = Infinity
    for (let attempt = 0; attempt < 3; attempt++) {
      await waitForQuietEventLoop()
      const loop = watchEventLoop()
      latencyMs = await abortMidStream()
      const stalled = loop.maxDelayMs() > 50
      loop.stop()
      if (!stalled) break
    }
    expect(latencyMs).toBeLessThan(100)
  })

  it('retries a 429 once and delivers the success', async () => {
    fake.enqueue({ status: 429, retryAfter: 0 }, { text: ['after ', 'the wait'] })
    const events = await collect(streamChat(gatewayClient, { messages }))
    expect(fake.chatRequests).toHaveLength(2)
    expect(events.filter((event) => event.type === 'text').map((event) => (event as { text: string }).text).join('')).toBe('after the wait')
    expect(events.at(-1)).toEqual({ type: 'finish', reason: 'stop' })
  })

  it('gives up on endless 429s with a rate-limit error, in bounded time', async () => {
    fake.setDefault({ status: 429, retryAfter: 0 })
    const started = performance.now()
    const failing = collect(streamChat(gatewayClient, { messages }))
    await expect(failing).rejects.toBeInstanceOf(LlmError)
    await expect(failing).rejects.toMatchObject({ code: 'ERR_LLM_RATE_LIMIT', status: 429 })
    expect(fake.chatRequests).toHaveLength(1 + LLM_OPTIONS.retry.maxRetries)
    expect(performance.now() - started).toBeLessThan(2000)
  })

  it('raises an error for a stream cut mid-way, and reports no success', async () => {
    fake.enqueue({ text: ['one ', 'two ', 'three ', 'four'], cutAfter: 3 })
    const seen: ChatEvent[] = []
    await expect(collect(streamChat(gatewayClient, { messages }), seen)).rejects.toMatchObject({ code: 'ERR_LLM_UPSTREAM' })
    expect(seen).toEqual([
      { type: 'text', text: 'one ' },
      { type: 'text', text: 'two ' },
    ])
    // The bare SDK fails too: the gateway ends the stream with an error event, never [DONE].
    fake.enqueue({ text: ['one ', 'two ', 'three ', 'four'], cutAfter: 3 })
    const iterate = async () => {
      for await (const _chunk of await gatewayClient.chat.completions.create({ model: MODEL, messages, stream: true })) void _chunk
    }
    await expect(iterate()).rejects.toMatchObject({ code: 'ERR_LLM_UPSTREAM' })
  })

  it('raises an error for a stream that ends without [DONE], even after its finish_reason', async () => {
    fake.enqueue({ text: ['all ', 'there'], omitDone: true })
    const seen: ChatEvent[] = []
    await expect(collect(streamChat(gatewayClient, { messages }), seen)).rejects.toMatchObject({ code: 'ERR_LLM_UPSTREAM' })
    expect(seen.some((event) => event.type === 'finish' || event.type === 'tool-call')).toBe(false)
  })

  it('stops a stalled stream with a timeout error', async () => {
    fake.enqueue({ text: ['a', 'b', 'c'], stallAfter: 2 })
    const started = performance.now()
    await expect(collect(streamChat(gatewayClient, { messages }))).rejects.toMatchObject({ code: 'ERR_LLM_TIMEOUT' })
    expect(performance.now() - started).toBeLessThan(2000)
    await fake.waitForClose(fake.chatRequests[0]!, 500)
  })

  it('turns an upstream auth failure into advice about the key, without the key', async () => {
    fake.enqueue({ status: 401, echoAuthorization: true, errorMessage: 'Incorrect API key provided' })
    const failing = collect(streamChat(gatewayClient, { messages }))
    await expect(failing).rejects.toMatchObject({ code: 'ERR_LLM_AUTH', status: 502 })
    const error = (await failing.catch((caught: unknown) => caught)) as LlmError
    expect(error.message).toContain('Check OPENAI_API_KEY')
    expect(error.message).not.toContain(KEY)
  })

  it('still checks the page token', async () => {
    const response = await api(dev, '/llm/v1/chat/completions', { method: 'POST', json: { messages }, headers: { 'x-metablog-token': 'wrong' } })
    expect(response.status).toBe(403)
    expect(fake.chatRequests).toHaveLength(0)
  })
})

describe('the API request timeout', () => {
  it('never cuts a streamed answer that lasts longer than it', async () => {
    // 35 chunks 200 ms apart: about 7 s, past the 5 s the API gives a request's headers and body.
    const text = Array.from({ length: 35 }, (_, index) => `t${index} `)
    fake.enqueue({ text, chunkDelayMs: 200 })
    const started = performance.now()
    const answer = await api(dev, '/llm/v1/chat/completions', { method: 'POST', json: { messages, stream: true } })
    expect(performance.now() - started).toBeGreaterThan(6_000)
    expect(answer.status).toBe(200)
    expect(answer.text).toContain('t34 ')
    expect(answer.text).toContain('data: [DONE]')
  }, 30_000)
})

describe('an upstream that echoes the key', () => {
  // Header values and the SSE framing are ASCII: the forms with other characters are left to the unit test.
  const forms = Object.entries(KEY_FORMS).filter(([, make]) => /^[\x20-\x7e]*$/.test(make(KEY)))

  it.each(forms.map(([name]) => [name]))('never passes the key on, %s, in any body or header, on any status', async (name) => {
    const echoKey = KEY_FORMS[name]!
    const form = echoKey(KEY)
    fake.enqueue({ echoKey }, { echoKey }, { echoKey, status: 400, errorMessage: 'Bad request' }, { echoKey, status: 401 })
    const answers = [
      await api(dev, '/llm/v1/chat/completions', { method: 'POST', json: { messages } }),
      await api(dev, '/llm/v1/chat/completions', { method: 'POST', json: { messages, stream: true } }),
      await api(dev, '/llm/v1/chat/completions', { method: 'POST', json: { messages } }),
      await api(dev, '/llm/v1/chat/completions', { method: 'POST', json: { messages, stream: true } }),
    ]
    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 400, 502])
    // The fake really echoed it: the request carried the key.
    expect(fake.chatRequests.every((record) => record.headers.authorization === `Bearer ${KEY}`)).toBe(true)
    for (const answer of answers) {
      const everything = `${answer.text}\n${[...answer.headers].map(([header, value]) => `${header}: ${value}`).join('\n')}`
      expect(everything).not.toContain(form)
      expect(everything).not.toContain(KEY)
    }
    expect(answers[0]!.json.choices[0].message.content).toMatch(/^Hello key: (?:Basic )?\[redacted\]$/)
    expect(answers[0]!.headers.get('x-request-id')).toMatch(/^(?:Basic )?\[redacted\]$/)
    expect(answers[1]!.text).toMatch(/key: (?:Basic )?\[redacted\]/)
    expect(answers[1]!.text).toContain('data: [DONE]')
  })
})

describe('LLM gateway without a model', () => {
  it('answers 503 with the steps to configure one', async () => {
    const response = await api(unconfigured, '/llm/v1/chat/completions', { method: 'POST', json: { messages, stream: true } })
    expect(response.status).toBe(503)
    expect(response.json.error.code).toBe('ERR_LLM_UNCONFIGURED')
    expect(response.json.error.message).toContain('OPENAI_API_KEY=your-key')
    expect(response.json.error.message).toContain(path.join(unconfigured.root, '.env'))
    const status = await api(unconfigured, '/llm/status')
    expect(status.json).toMatchObject({ configured: false, provider: null, model: null, baseURLHost: null })
    expect(status.json.instructions).toContain('Ollama')
    const client = createLlmClient({ origin: unconfigured.origin, token: unconfigured.token, fetch: recordingFetch })
    await expect(collect(streamChat(client, { messages }))).rejects.toMatchObject({ code: 'ERR_LLM_UNCONFIGURED', status: 503 })
  })
})

describe('closing the dev server', () => {
  it('aborts the model call in flight', async () => {
    fake.enqueue({ text: Array.from({ length: 200 }, () => 'x'), chunkDelayMs: 10 })
    const seen: ChatEvent[] = []
    const running = collect(streamChat(gatewayClient, { messages }), seen)
    while (seen.length < 3) await new Promise((resolve) => setTimeout(resolve, 5))
    const closing = dev.close()
    await expect(running).rejects.toBeInstanceOf(Error)
    const record = await fake.waitForClose(fake.chatRequests[0]!, 1000)
    expect(record.completed).toBe(false)
    await closing
    closed = true
  })
})

describe('the key', () => {
  it('appears in no response and no log line of this suite', async () => {
    await Promise.all(pendingCaptures)
    expect(keyedRequests).toBeGreaterThan(10)
    expect(captured.some((text) => text.includes('[metablog] model request failed'))).toBe(true)
    const leaks = captured.filter((text) => text.includes(KEY))
    expect(leaks).toEqual([])
  })
})
