import OpenAI from 'openai'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { LlmError } from '../../../../client/api/llm-error.js'
import { streamChat, type ChatEvent } from '../../../../client/api/stream-chat.js'
import { startFakeLlm, type FakeLlm } from '../../../fixtures/fake-llm-server.js'

let fake: FakeLlm
let client: OpenAI

beforeAll(async () => {
  fake = await startFakeLlm()
  // Straight at the fake: these tests are about reading the stream, not the gateway.
  client = new OpenAI({ baseURL: fake.baseURL, apiKey: 'test', maxRetries: 0 })
})

afterEach(() => fake.reset())

afterAll(async () => {
  await fake.close()
})

async function collect(events: AsyncIterable<ChatEvent>): Promise<ChatEvent[]> {
  const all: ChatEvent[] = []
  for await (const event of events) all.push(event)
  return all
}

const messages = [{ role: 'user' as const, content: 'Hi' }]

describe('streamChat', () => {
  it('yields reasoning and text as they come, then usage and finish', async () => {
    fake.enqueue({ reasoning: ['Think', 'ing'], text: ['Hel', 'lo'], usage: { prompt_tokens: 4, completion_tokens: 6 } })
    const events = await collect(streamChat(client, { model: 'm', messages }))
    expect(events).toEqual([
      { type: 'reasoning', text: 'Think' },
      { type: 'reasoning', text: 'ing' },
      { type: 'text', text: 'Hel' },
      { type: 'text', text: 'lo' },
      { type: 'usage', usage: { prompt_tokens: 4, completion_tokens: 6, total_tokens: 10 } },
      { type: 'finish', reason: 'stop' },
    ])
    expect(fake.chatRequests[0]!.body).toMatchObject({ stream: true, stream_options: { include_usage: true } })
  })

  it('buffers tool calls and parses (or repairs) their arguments', async () => {
    fake.enqueue({
      toolCalls: [
        { id: 'call_1', name: 'write_page', arguments: '{"path":"a.md","content":"# A\n\nBody"}', parts: 4 },
        { id: 'call_2', name: 'search', arguments: '{"q":"vite"}' },
        { id: 'call_3', name: 'broken', arguments: '{"q":"cut' },
      ],
    })
    const events = await collect(streamChat(client, { model: 'm', messages }))
    expect(events.filter((event) => event.type === 'tool-call')).toEqual([
      { type: 'tool-call', id: 'call_1', name: 'write_page', arguments: { path: 'a.md', content: '# A\n\nBody' }, rawArguments: '{"path":"a.md","content":"# A\n\nBody"}' },
      { type: 'tool-call', id: 'call_2', name: 'search', arguments: { q: 'vite' }, rawArguments: '{"q":"vite"}' },
      expect.objectContaining({ type: 'tool-call', id: 'call_3', name: 'broken', arguments: null, error: expect.stringContaining('cannot be safely repaired') }),
    ])
    expect(events.at(-1)).toEqual({ type: 'finish', reason: 'tool_calls' })
  })

  it('treats a stream that ends without finish_reason as an error', async () => {
    fake.enqueue({ text: ['partial'], finishReason: null })
    const seen: ChatEvent[] = []
    const failing = (async () => {
      for await (const event of streamChat(client, { model: 'm', messages })) seen.push(event)
    })()
    await expect(failing).rejects.toMatchObject({ name: 'LlmError', code: 'ERR_LLM_UPSTREAM' })
    expect(seen).toEqual([{ type: 'text', text: 'partial' }])
  })

  it('turns an upstream error into an LlmError', async () => {
    fake.enqueue({ status: 429, errorMessage: 'slow down' })
    const failing = collect(streamChat(client, { model: 'm', messages }))
    await expect(failing).rejects.toBeInstanceOf(LlmError)
    await expect(failing).rejects.toMatchObject({ code: 'ERR_LLM_RATE_LIMIT', status: 429 })
  })

  it('stops the request when the signal aborts, throwing its reason', async () => {
    fake.enqueue({ text: Array.from({ length: 100 }, () => 'x'), chunkDelayMs: 10 })
    const controller = new AbortController()
    const reason = new Error('author pressed stop')
    let count = 0
    const running = (async () => {
      for await (const event of streamChat(client, { model: 'm', messages }, { signal: controller.signal })) {
        if (event.type === 'text' && ++count === 3) controller.abort(reason)
      }
    })()
    await expect(running).rejects.toBe(reason)
    const record = await fake.waitForClose(fake.chatRequests[0]!, 1000)
    expect(record.completed).toBe(false)
  })

  it('refuses to start with an aborted signal', async () => {
    await expect(collect(streamChat(client, { model: 'm', messages }, { signal: AbortSignal.abort() }))).rejects.toMatchObject({ name: 'AbortError' })
    expect(fake.chatRequests).toHaveLength(0)
  })
})
