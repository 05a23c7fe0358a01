import fs from 'node:fs/promises'
import path from 'node:path'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { builtinSkills } from '../../client/skills/index.js'
import { builtinTools } from '../../client/tools/index.js'
import { toolSpecs } from '../../client/runtime/define-tool.js'
import { COMPACT_AT } from '../../client/runtime/conversation/context-window.js'
import { estimateRequest } from '../../client/runtime/conversation/tokens.js'
import { startFakeLlm, type FakeLlm, type FakeReply } from '../fixtures/fake-llm-server.js'
import { startDevServer, type DevServer } from '../helpers/dev-server.js'
import { createTestRuntime, fakeModelEnv } from '../helpers/runtime.js'

let fake: FakeLlm
let dev: DevServer
const started: { abort(): boolean }[] = []

beforeAll(async () => {
  fake = await startFakeLlm()
  dev = await startDevServer({ env: fakeModelEnv(fake) })
})

afterEach(() => {
  for (const runtime of started.splice(0)) runtime.abort()
  fake.reset()
})

afterAll(async () => {
  await dev?.close()
  await fake?.close()
})

const answer = (text: string): FakeReply => ({ text: [text], usage: { prompt_tokens: 600, completion_tokens: 20 } })
type Message = { role: string; content: string | null }
const messagesOf = (index: number) => fake.chatRequests[index]!.body.messages as Message[]
const isSummary = (index: number) => String(messagesOf(index)[0]?.content).startsWith('You summarise a conversation')
const TOOL_SPECS = toolSpecs(builtinTools)

function agentRuntime(contextWindows?: Record<string, number>) {
  const created = createTestRuntime(dev, { skills: builtinSkills, tools: builtinTools, ...(contextWindows ? { contextWindows } : {}) })
  started.push(created.runtime)
  return created
}

describe('memory across turns', () => {
  it("a follow-up's request carries the earlier request and answer", async () => {
    fake.enqueue(answer('Fsync forces the data to the disk before the rename.'), answer('Fsync makes the write durable.'))
    const { runtime } = agentRuntime()
    expect((await runtime.processInput('tell me about the fsync idea in two sentences'))?.outcome).toBe('COMPLETED')
    expect((await runtime.processInput('now in one sentence please'))?.outcome).toBe('COMPLETED')
    expect(fake.chatRequests).toHaveLength(2)
    const second = messagesOf(1).filter((message) => message.role !== 'system')
    expect(second).toEqual([
      { role: 'user', content: 'tell me about the fsync idea in two sentences' },
      { role: 'assistant', content: 'Fsync forces the data to the disk before the rename.' },
      { role: 'user', content: 'now in one sentence please' },
    ])
  }, 90_000)
})

describe('compaction', () => {
  it('a long conversation crosses the budget: one summarisation request, then a request under budget with the recent turns verbatim', async () => {
    const window = 3000
    const { runtime, state } = agentRuntime({ 'gpt-4o-mini': window })
    const long = (index: number) => `Answer ${index}: ${'durable writes need a temp file, fsync and a rename. '.repeat(12)}`
    const question = (index: number) => `question ${index} about durable writes, please elaborate`
    let turns = 0
    let before = 0
    // Turns until the request, with every earlier turn verbatim, would pass 80% of the window.
    while (turns < 12) {
      const last = fake.chatRequests.at(-1)
      const whole = last ? [...(last.body.messages as Message[]), { role: 'assistant', content: long(turns - 1) }, { role: 'user', content: question(turns) }] : []
      before = whole.length ? estimateRequest(whole as never, TOOL_SPECS) : 0
      const crosses = before > COMPACT_AT * window
      fake.reset()
      if (crosses) fake.enqueue(answer('Summary: the author asked about durable writes several times.'))
      fake.enqueue(answer(long(turns)))
      expect((await runtime.processInput(question(turns)))?.outcome).toBe('COMPLETED')
      turns++
      if (crosses) break
      // Under the budget the request goes as it is: no summarisation.
      expect(fake.chatRequests).toHaveLength(1)
    }
    const summaries = fake.chatRequests.filter((_, index) => isSummary(index))
    expect(summaries).toHaveLength(1)
    expect(turns).toBeGreaterThan(2)
    expect(isSummary(0)).toBe(true)
    const next = messagesOf(1)
    const after = estimateRequest(next as never, TOOL_SPECS)
    console.log(`compaction: window ${window}, budget ${COMPACT_AT * window} tokens; request before ${before} tokens, after ${after} tokens (${turns - 1} earlier turns)`)
    expect(before).toBeGreaterThan(COMPACT_AT * window)
    expect(after).toBeLessThan(COMPACT_AT * window)
    expect(next[1]).toMatchObject({ role: 'system', content: expect.stringContaining('Summary: the author asked about durable writes') })
    // The most recent earlier turn is there word for word, the oldest only in the summary.
    expect(next).toContainEqual({ role: 'user', content: question(turns - 2) })
    expect(next).toContainEqual({ role: 'assistant', content: long(turns - 2) })
    expect(next).not.toContainEqual({ role: 'assistant', content: long(0) })
    expect(next.at(-1)).toEqual({ role: 'user', content: question(turns - 1) })
    expect(state.messages.some((message) => message.kind === 'assistant' && message.text.startsWith('**Conversation compacted**'))).toBe(true)
  }, 180_000)

  it('/compact summarises all but the last turn on demand, and says so when there is nothing to compact', async () => {
    const { runtime, state } = agentRuntime()
    expect(runtime.commands.map((command) => command.name)).toContain('compact')
    await runtime.processInput('/compact')
    expect(fake.chatRequests).toHaveLength(0)
    expect(state.messages.at(-1)).toMatchObject({ kind: 'assistant', text: expect.stringContaining('Nothing to compact yet') })
    fake.enqueue(answer('First answer.'), answer('Second answer.'), answer('The author asked about fsync.'))
    await runtime.processInput('tell me about the fsync idea')
    await runtime.processInput('and about the rename idea')
    await runtime.processInput('/compact')
    expect(fake.chatRequests).toHaveLength(3)
    expect(isSummary(2)).toBe(true)
    expect(state.messages.at(-1)).toMatchObject({ kind: 'assistant', text: expect.stringMatching(/^\*\*Conversation compacted\*\*: 1 earlier turn summarised; kept verbatim: “and about the rename idea”/) })
    expect(runtime.conversation.history().map((entry) => entry.role)).toEqual(['system', 'user', 'assistant'])
  }, 120_000)

  it('a tool result that pushes the running turn over the budget compacts before the next model request of the same turn', async () => {
    const window = 3000
    const { runtime } = agentRuntime({ 'gpt-4o-mini': window })
    const page = 'posts/long-read.md'
    await fs.mkdir(path.join(dev.root, 'posts'), { recursive: true })
    await fs.writeFile(path.join(dev.root, page), `---\ntitle: Long read\n---\n\n${'A paragraph about durable storage and careful renames. '.repeat(60)}\n`)
    const earlier = (index: number) => `Earlier answer ${index}: ${'temp files and renames keep writes whole. '.repeat(20)}`
    for (let index = 0; index < 3; index++) {
      fake.enqueue(answer(earlier(index)))
      await runtime.processInput(`earlier question ${index} about durable writes`)
    }
    fake.reset()
    fake.enqueue(
      { toolCalls: [{ id: 'call_read', name: 'read_page', arguments: JSON.stringify({ path: page }) }], usage: { prompt_tokens: 900, completion_tokens: 20 } },
      answer('Summary: three questions about durable writes.'),
      answer('The long read says the same.'),
    )
    expect((await runtime.processInput('read posts/long-read.md and compare'))?.outcome).toBe('COMPLETED')
    expect(fake.chatRequests).toHaveLength(3)
    expect(isSummary(0)).toBe(false)
    expect(isSummary(1)).toBe(true)
    const last = messagesOf(2)
    const before = estimateRequest([...messagesOf(0), ...last.slice(-2)] as never, TOOL_SPECS)
    const after = estimateRequest(last as never, TOOL_SPECS)
    console.log(`mid-turn compaction: budget ${COMPACT_AT * window} tokens; request before ${before} tokens, after ${after} tokens`)
    expect(before).toBeGreaterThan(COMPACT_AT * window)
    expect(after).toBeLessThan(COMPACT_AT * window)
    // The running turn's tool call and result stay whole; the latest earlier turn stays verbatim.
    expect(last.at(-1)).toMatchObject({ role: 'tool', content: expect.stringContaining('careful renames') })
    expect(last).toContainEqual({ role: 'assistant', content: earlier(2) })
    expect(last).not.toContainEqual({ role: 'assistant', content: earlier(0) })
  }, 120_000)

  const overflow: FakeReply = {
    status: 400,
    errorCode: 'context_length_exceeded',
    errorMessage: "This model's maximum context length is 8192 tokens. However, your messages resulted in 9120 tokens.",
  }

  it("a provider's context-length error triggers one compaction and one retry", async () => {
    fake.enqueue(answer('First answer.'), answer('Second answer.'))
    const { runtime } = agentRuntime()
    await runtime.processInput('tell me about the fsync idea')
    await runtime.processInput('and about the rename idea')
    fake.enqueue(overflow, answer('A short summary of the first turn.'), answer('Third answer.'))
    expect((await runtime.processInput('and how do the two fit together'))?.outcome).toBe('COMPLETED')
    expect(fake.chatRequests).toHaveLength(5)
    expect(isSummary(3)).toBe(true)
    const retried = messagesOf(4).filter((message) => message.role !== 'system' || message.content?.startsWith('Summary of the earlier'))
    expect(retried).toEqual([
      { role: 'system', content: expect.stringContaining('A short summary of the first turn.') },
      { role: 'user', content: 'and about the rename idea' },
      { role: 'assistant', content: 'Second answer.' },
      { role: 'user', content: 'and how do the two fit together' },
    ])
  }, 120_000)

  it('a second context-length error is shown to the author, never retried in a loop', async () => {
    fake.enqueue(answer('First answer.'), answer('Second answer.'))
    const { runtime, state } = agentRuntime()
    await runtime.processInput('tell me about the fsync idea')
    await runtime.processInput('and about the rename idea')
    fake.enqueue(overflow, answer('A summary.'), overflow, answer('never asked'))
    expect((await runtime.processInput('and how do the two fit together'))?.outcome).toBe('ERROR')
    expect(fake.chatRequests).toHaveLength(5)
    expect(state.messages.findLast((message) => message.kind === 'error')).toMatchObject({ code: 'ERR_LLM_CONTEXT', message: expect.stringContaining('context window') })
  }, 120_000)
})
