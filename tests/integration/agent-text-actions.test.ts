// A model that cannot call tools still runs the agent: it writes ```action blocks, the loop runs them
// through the same tools, approvals and checkpoints, and the results come back as user messages.
import fs from 'node:fs/promises'
import path from 'node:path'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { builtinSkills } from '../../client/skills/index.js'
import { builtinTools } from '../../client/tools/index.js'
import { startFakeLlm, type FakeLlm, type FakeReply } from '../fixtures/fake-llm-server.js'
import { startDevServer, type DevServer } from '../helpers/dev-server.js'
import { createTestRuntime, fakeModelEnv, pendingCard, until } from '../helpers/runtime.js'

let fake: FakeLlm
let dev: DevServer
const PAGE = 'posts/durability.md'
const SOURCE = ['---', 'title: Durable Writes', '---', '', '# Durable Writes', '', 'Write a temp file, then rename it over the old one.', ''].join('\n')
const SENTENCE = ' Call fsync first.'
const REASONING = 'REASONING-7f3a: the author wants fsync mentioned'

beforeAll(async () => {
  fake = await startFakeLlm({ models: ['fake-model', 'gemma2:2b'] })
  dev = await startDevServer({ env: fakeModelEnv(fake) })
}, 120_000)

beforeEach(async () => {
  await fs.mkdir(path.join(dev.root, 'posts'), { recursive: true })
  await fs.writeFile(path.join(dev.root, PAGE), SOURCE)
})

const started: { abort(): boolean }[] = []
afterEach(() => {
  for (const runtime of started.splice(0)) runtime.abort()
  fake.reset()
})

afterAll(async () => {
  await dev?.close()
  await fake?.close()
})

const read = () => fs.readFile(path.join(dev.root, PAGE), 'utf8')
const text = (...pieces: string[]): FakeReply => ({ text: pieces, usage: { prompt_tokens: 500, completion_tokens: 40 } })
const action = (tool: string, args: unknown) => `\`\`\`action\n${JSON.stringify({ tool, arguments: args })}\n\`\`\``
/** Ollama's answer to a request with `tools` for a model whose template has none. */
const REFUSE_TOOLS: FakeReply = { status: 400, errorMessage: 'registry.ollama.ai/library/gemma2:2b does not support tools', errorCode: 'invalid_request_error' }
const EDIT = { path: PAGE, edits: [{ oldText: 'then rename it over the old one.', newText: `then rename it over the old one.${SENTENCE}` }] }

function agentRuntime() {
  const created = createTestRuntime(dev, { skills: builtinSkills, tools: builtinTools })
  started.push(created.runtime)
  return created
}

type Sent = { role: string; content: string | null; tool_calls?: unknown }
const sent = (index: number) => fake.chatRequests[index]!.body.messages as Sent[]

// First: the gateway remembers a model that refused tools, and the fallback test below teaches it that about the configured one.
describe('reasoning in agent turns', () => {
  it('is shown folded in the panel, and never reaches the page or the memory sent back', async () => {
    fake.enqueue(
      { reasoning: [REASONING], toolCalls: [{ id: 'call_edit', name: 'edit_page', arguments: JSON.stringify(EDIT) }], usage: { prompt_tokens: 400, completion_tokens: 30 } },
      { reasoning: [`${REASONING} (done)`], text: ['Added the sentence.'], usage: { prompt_tokens: 600, completion_tokens: 20 } },
    )
    const { runtime, state } = agentRuntime()
    runtime.approvalMode = 'auto-edit'
    expect(await runtime.processInput('add a sentence about fsync', { currentFile: PAGE })).toMatchObject({ outcome: 'COMPLETED' })
    const folded = state.messages.filter((message) => message.kind === 'assistant' && /```reasoning\n/.test(message.text))
    expect(folded).toHaveLength(1)
    expect(folded[0]!.kind === 'assistant' && folded[0]!.text).toContain(REASONING)
    expect(await read()).not.toContain('REASONING-7f3a')
    // Within the task, the model gets its answers back without the reasoning.
    expect(JSON.stringify(sent(1))).not.toContain('REASONING-7f3a')

    // An answer whose only turn thinks: its fold comes after the reply, and is still not what memory keeps.
    fake.enqueue({ reasoning: [`${REASONING} again`], text: ['Yes, under the first heading.'], usage: { prompt_tokens: 700, completion_tokens: 9 } }, text('Fine.'))
    await runtime.processInput('did you add it?', { currentFile: PAGE })
    expect(state.messages.filter((message) => message.kind === 'assistant' && message.text.includes('again'))).toHaveLength(1)
    await runtime.processInput('thanks', { currentFile: PAGE })
    const next = JSON.stringify(sent(3))
    expect(next).toContain('Added the sentence.')
    expect(next).toContain('Yes, under the first heading.')
    expect(next).not.toContain('REASONING-7f3a')
  }, 60_000)
})

describe('the agent on a model without tool support', () => {
  it('a bad action is a tool error the model sees, never a crash', async () => {
    fake.enqueue(REFUSE_TOOLS, text('```action\n{"tool": "read_page", "arguments": {"path": ../x}\n```'), text('```action\n{"tool": "make_coffee", "arguments": {}}\n```'), text('Sorry, I could not do that.'))
    const { runtime, state } = agentRuntime()
    // Another model than the configured one, which the next test teaches the gateway to call without tools.
    runtime.chooseModel('gemma2:2b')
    expect(await runtime.processInput('read the page', { currentFile: PAGE })).toMatchObject({ outcome: 'COMPLETED' })
    expect(fake.chatRequests[0]!.body).toMatchObject({ model: 'gemma2:2b' })
    expect(sent(2).at(-1)!.content).toContain('ERR_BAD_ARGUMENTS')
    expect(sent(3).at(-1)!.content).toContain('ERR_UNKNOWN_TOOL')
    expect(state.messages.filter((message) => message.kind === 'tool').map((row) => row.kind === 'tool' && row.status)).toEqual(['error', 'error'])
  }, 60_000)

  it('falls back to text actions at the refusal: read_page → edit_page → approval → file on disk, and stays in text for the next request', async () => {
    fake.enqueue(
      REFUSE_TOOLS,
      // Split mid-fence, as a stream does: the action block never reaches the panel's reply.
      text('I will read the page first.\n\n``', '`action\n{"tool": "read_page", "arguments": {"path": "posts/durability.md"}}\n```\n'),
      text(`Adding the sentence.\n\n${action('edit_page', EDIT)}`),
      text('Added a sentence about fsync.'),
    )
    const { runtime, state } = agentRuntime()
    const running = runtime.processInput('add a sentence about fsync', { currentFile: PAGE })
    const card = await until(() => pendingCard(state.messages, 'approval'), 30_000, 'the approval card')
    expect(card.kind === 'approval' && card.proposal).toMatchObject({ kind: 'edit', path: PAGE, before: 'then rename it over the old one.' })
    expect(await read()).toBe(SOURCE)
    runtime.decide(card.id, { action: 'accept' })
    expect(await running).toMatchObject({ skill: 'agent', outcome: 'COMPLETED' })
    expect(await read()).toBe(SOURCE.replace('old one.', `old one.${SENTENCE}`))

    // The refused request offered tools; every later one is plain text with the protocol in the system message.
    expect(fake.chatRequests).toHaveLength(4)
    expect(fake.chatRequests[0]!.body.tools).toHaveLength(7)
    for (const index of [1, 2, 3]) {
      expect(fake.chatRequests[index]!.body.tools).toBeUndefined()
      expect(sent(index).every((message) => message.role !== 'tool' && !message.tool_calls)).toBe(true)
      expect(sent(index)[0]!.content).toContain('```action')
    }
    expect(sent(1)[0]!.content).toContain('- edit_page:')
    // The result comes back as a user message; the model's own action stays in its assistant message.
    expect(sent(2).at(-2)).toMatchObject({ role: 'assistant', content: expect.stringContaining('"tool":"read_page"') })
    expect(sent(2).at(-1)).toMatchObject({ role: 'user', content: expect.stringContaining('Result of read_page:') })
    expect(sent(2).at(-1)!.content).toContain('Durable Writes')
    expect(sent(3).at(-1)!.content).toContain('"status":"applied"')

    const rows = state.messages.filter((message) => message.kind === 'tool')
    expect(rows.map((row) => row.kind === 'tool' && [row.summary, row.status])).toEqual([
      [`Read ${PAGE}`, 'done'],
      [`Edited ${PAGE} (1 change)`, 'done'],
    ])
    const replies = state.messages.filter((message) => message.kind === 'assistant').map((message) => (message.kind === 'assistant' ? message.text : ''))
    expect(replies.some((reply) => reply.includes('plain-text action protocol') && reply.includes('gpt-4o-mini'))).toBe(true)
    expect(replies.map((reply) => reply.trim())).toContain('I will read the page first.')
    expect(replies.at(-1)).toBe('Added a sentence about fsync.')
    expect(replies.join('\n')).not.toContain('```action')
    expect((await dev.api('/checkpoints')).json.checkpoints).toEqual([])
    // The header's "text actions" note shows without a reload.
    expect(runtime.modelStatus?.capabilities?.tools).toBe(false)

    // Same conversation, no reload: the next request goes straight to text actions.
    fake.enqueue(text('It now says to call fsync first.'))
    expect(await runtime.processInput('what does the page say now?', { currentFile: PAGE })).toMatchObject({ skill: 'agent', outcome: 'COMPLETED' })
    expect(fake.chatRequests).toHaveLength(5)
    expect(fake.chatRequests[4]!.body.tools).toBeUndefined()
    // The gateway learned it too: the status says the model takes no tools.
    expect((await dev.api('/llm/status')).json.capabilities.tools).toBe(false)
  }, 90_000)
})

