import { describe, expect, it } from 'vitest'
import { compactTurns, keptFrom } from '../../../../../client/runtime/conversation/compaction'
import { isContextLengthError } from '../../../../../client/runtime/conversation/context-length-error'
import { contextWindow, DEFAULT_CONTEXT_WINDOW, MAX_DEFAULT_WINDOW } from '../../../../../client/runtime/conversation/context-window'
import { ConversationMemory } from '../../../../../client/runtime/conversation/memory'
import { estimateRequest, estimateTokens } from '../../../../../client/runtime/conversation/tokens'
import type { MemoryTurn } from '../../../../../client/runtime/conversation/turns'
import { LlmError } from '../../../../../client/api/errors'
import type { ModelPort, ModelRequest } from '../../../../../client/runtime/types'

/** A model that answers every request with `answer` and records what it was asked. */
function summarisingModel(answer = 'The author is writing about durable writes.') {
  const requests: ModelRequest[] = []
  const port: ModelPort = {
    model: 'gpt-4o-mini',
    async complete(request) {
      requests.push(request)
      return answer
    },
    async turn(request) {
      requests.push(request)
      return { text: answer, toolCalls: [], finishReason: 'stop', usage: null }
    },
  }
  return { port, requests }
}

const turn = (index: number, size = 400): MemoryTurn => ({ request: `Question ${index}`, answer: `Answer ${index}: ${'x'.repeat(size)}` })

describe('context windows', () => {
  it('knows common models, takes the author\'s override first, and assumes a small window for an unknown model', () => {
    expect(contextWindow('gpt-4o-mini')).toBe(128_000)
    expect(contextWindow('deepseek-chat')).toBe(64_000)
    expect(contextWindow('qwen/qwen-plus', { '*': 131_072 })).toBe(131_072)
    expect(contextWindow('qwen/qwen-plus')).toBe(MAX_DEFAULT_WINDOW)
    expect(contextWindow('openrouter/deepseek-chat')).toBe(64_000)
    expect(contextWindow('my-finetune')).toBe(DEFAULT_CONTEXT_WINDOW)
    // A huge window is used only up to a cap (cost per request, checkpoint size), unless the author says otherwise.
    expect(contextWindow('gpt-4.1-mini')).toBe(MAX_DEFAULT_WINDOW)
    expect(contextWindow('gpt-4.1-mini', { 'gpt-4.1-mini': 1_000_000 })).toBe(1_000_000)
    expect(contextWindow('gpt-4o-mini', { 'gpt-4o-mini': 4000 })).toBe(4000)
    expect(contextWindow('llama3', { '*': 16_000 })).toBe(16_000)
    // A name from untrusted config is looked up as an own key only.
    expect(contextWindow('constructor')).toBe(DEFAULT_CONTEXT_WINDOW)
  })
})

describe('token estimates', () => {
  it('counts about four characters of English and one CJK character per token, plus each message and the tools', () => {
    expect(estimateTokens('a'.repeat(400))).toBe(100)
    expect(estimateTokens('原子写入')).toBe(4)
    const messages = [{ role: 'user' as const, content: 'a'.repeat(40) }]
    expect(estimateRequest(messages)).toBe(14)
    expect(estimateRequest(messages, [{ type: 'function', function: { name: 'read_page', parameters: {} } }])).toBeGreaterThan(14)
  })
})

describe('the context-length error', () => {
  it('is recognised by the provider code or its words, and nothing else is', () => {
    expect(isContextLengthError(new LlmError('ERR_LLM_BAD_REQUEST', "The model provider at api.openai.com rejected the request (400: This model's maximum context length is 8192 tokens).", 400))).toBe(true)
    expect(isContextLengthError(Object.assign(new Error('bad'), { code: 'context_length_exceeded' }))).toBe(true)
    expect(isContextLengthError(new LlmError('ERR_LLM_BAD_REQUEST', 'The model provider rejected the request (400: unknown parameter tools).', 400))).toBe(false)
    expect(isContextLengthError(new LlmError('ERR_LLM_RATE_LIMIT', 'too many tokens per minute', 429))).toBe(false)
  })
})

describe('conversation memory', () => {
  it('carries every turn: requests, answers, tool calls in short form and what recipes wrote', () => {
    const memory = new ConversationMemory()
    memory.remember({ request: 'draft a post about ETags', recipe: { skill: 'write', summary: 'Drafted **Understanding ETags**.', paths: ['posts/etags.md'] } })
    memory.remember({ request: 'add fsync to it', mentions: ['posts/durability.md'], tools: ['Read posts/etags.md', 'Edited posts/etags.md (1 change)'], answer: 'Added it.' })
    expect(memory.history()).toEqual([
      { role: 'user', text: 'draft a post about ETags' },
      { role: 'assistant', text: '[The write recipe ran. Pages written: posts/etags.md.]\nDrafted **Understanding ETags**.' },
      { role: 'user', text: 'add fsync to it\n(Mentioned pages: posts/durability.md)' },
      { role: 'assistant', text: '[Tools used: Read posts/etags.md; Edited posts/etags.md (1 change)]\n\nAdded it.' },
    ])
  })

  it('keeps the recent turns that fit verbatim (always the last one) and summarises the rest in one request', async () => {
    const turns = Array.from({ length: 10 }, (_, index) => turn(index))
    // Each turn is about 110 tokens: 350 tokens keep the last three.
    expect(keptFrom(turns, 350)).toBe(7)
    expect(keptFrom([turn(0, 40_000)], 10)).toBe(0)
    expect(keptFrom([turn(0), turn(1, 40_000)], 10)).toBe(1)

    const { port, requests } = summarisingModel()
    const memory = new ConversationMemory()
    for (const each of turns) memory.remember(each)
    const compaction = await memory.compact(port, 1000)
    expect(requests).toHaveLength(1)
    expect(requests[0]!.messages[1]!.content).toContain('Question 6')
    expect(requests[0]!.messages[1]!.content).not.toContain('Question 7')
    expect(compaction).toMatchObject({ summarised: 7, keptFrom: 7, kept: ['Question 7', 'Question 8', 'Question 9'] })
    const history = memory.history()
    expect(history[0]).toEqual({ role: 'system', text: expect.stringContaining('The author is writing about durable writes.') })
    expect(history.slice(1).map((entry) => entry.text.slice(0, 10))).toEqual(['Question 7', 'Answer 7: ', 'Question 8', 'Answer 8: ', 'Question 9', 'Answer 9: '])
  })

  it('has nothing to compact when every turn fits, and sends the earlier summary along with the next compaction', async () => {
    const { port, requests } = summarisingModel('second summary')
    expect(await compactTurns(port, [turn(0), turn(1)], undefined, 100_000)).toBeNull()
    expect(requests).toHaveLength(0)
    const memory = new ConversationMemory()
    memory.load([turn(0), turn(1), turn(2), turn(3)], 'first summary')
    await memory.compact(port, 400)
    expect(requests[0]!.messages[1]!.content).toContain('first summary')
    expect(memory.history()[0]!.text).toContain('second summary')
  })
})
