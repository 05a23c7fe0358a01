import { createLlmClient } from '../../client/api/llm-client.js'
import { createMetaBlogApi } from '../../client/api/metablog-api.js'
import { AgentRuntime, type AgentRuntimeOptions } from '../../client/runtime/agent-runtime.js'
import { createPlainChatState } from '../../client/runtime/chat-state.js'
import { createLogger } from '../../client/runtime/logger.js'
import type { ChatMessage } from '../../client/runtime/types.js'
import type { FakeLlm, FakeReply } from '../fixtures/fake-llm-server.js'

/** Gateway options for a dev server whose model is the fake: short retries keep suites fast. */
export function fakeModelEnv(fake: FakeLlm, model = 'gpt-4o-mini') {
  const llm = {
    apiKey: 'sk-test-runtime-key',
    baseURL: fake.baseURL,
    model,
    ollama: false,
    retry: { maxRetries: 2, baseDelayMs: 20, maxDelayMs: 100, maxRetryAfterMs: 2000 },
    // Generous: a loaded CI machine can pause a healthy stream for seconds; no suite here waits it out.
    idleTimeoutMs: 15_000,
  }
  return { METABLOG_TEST_LLM: JSON.stringify(llm) }
}

/** A runtime as the page builds it, but in Node: the real API client and OpenAI client against a dev server. */
export function createTestRuntime(server: { origin: string; token: string }, options: Partial<AgentRuntimeOptions> = {}) {
  const connection = { origin: server.origin, token: server.token }
  const state = createPlainChatState()
  const runtime = new AgentRuntime({
    api: createMetaBlogApi(connection),
    llm: createLlmClient(connection),
    state,
    logger: createLogger({ sink: null }),
    ...options,
  })
  return { runtime, state }
}

export async function until<T>(probe: () => T | Promise<T>, timeoutMs = 10_000, what = 'condition'): Promise<NonNullable<T>> {
  const started = Date.now()
  while (Date.now() - started < timeoutMs) {
    const value = await probe()
    if (value) return value as NonNullable<T>
    await new Promise((resolve) => setTimeout(resolve, 25))
  }
  throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`)
}

export function pendingCard(messages: readonly ChatMessage[], kind: 'approval' | 'conflict') {
  return messages.find((message) => message.kind === kind && message.status === 'pending')
}

// Scripted model answers for the write skill, in the order it asks.
export const OUTLINE: FakeReply = {
  text: ['# Understanding ETags\n\n', '## What an ETag is\nA fingerprint.\n', '## Conditional requests\nIf-Match.\n'],
  usage: { prompt_tokens: 120, completion_tokens: 30 },
}

export function content(pieces: string[], chunkDelayMs = 0): FakeReply {
  return { text: pieces, chunkDelayMs, usage: { prompt_tokens: 300, completion_tokens: pieces.length * 5 } }
}

export const DETAILS: FakeReply = {
  text: ['{"tags": ["http", "caching"], ', '"description": "How ETags keep concurrent writes safe."}'],
  usage: { prompt_tokens: 200, completion_tokens: 20 },
}

export const sentences = (count: number, from = 0) => Array.from({ length: count }, (_, index) => `Sentence ${from + index}. `)

export function requestsContaining(fake: FakeLlm, phrase: string) {
  return fake.chatRequests.filter((request) => JSON.stringify(request.body?.messages ?? '').includes(phrase))
}
