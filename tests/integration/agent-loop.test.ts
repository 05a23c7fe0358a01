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
const SOURCE = [
  '---',
  'title: Durable Writes',
  'tags: [storage]',
  '---',
  '',
  '# Durable Writes',
  '',
  '## Why it matters',
  '',
  'A crash must never leave half a file.  Two spaces stay here.',
  '',
  '## Rename is atomic',
  '',
  'Write a temp file, then rename it over the old one.',
  '',
  '## Notes',
  '',
  '<!-- the author keeps this comment -->',
  '',
].join('\n')
const SENTENCE = ' Call fsync on the temp file before the rename, or a crash can still lose it.'

/** Every request the runtime sends to the dev-server API, as "METHOD /route". */
const traffic: string[] = []
const realFetch = globalThis.fetch

beforeAll(async () => {
  fake = await startFakeLlm()
  dev = await startDevServer({ env: fakeModelEnv(fake) })
  globalThis.fetch = (input, init) => {
    const url = new URL(input instanceof Request ? input.url : String(input))
    if (url.pathname.startsWith('/__metablog/api/') && !url.pathname.includes('/llm/')) {
      traffic.push(`${init?.method ?? 'GET'} ${url.pathname.replace('/__metablog/api', '')}`)
    }
    return realFetch(input, init)
  }
})

beforeEach(async () => {
  traffic.length = 0
  await fs.mkdir(path.join(dev.root, 'posts'), { recursive: true })
  await fs.writeFile(path.join(dev.root, PAGE), SOURCE)
})

/** Runtimes a test started: a test that fails mid-task must not leave one consuming the next test's replies. */
const started: { abort(): boolean }[] = []

afterEach(() => {
  for (const runtime of started.splice(0)) runtime.abort()
  fake.reset()
})

afterAll(async () => {
  globalThis.fetch = realFetch
  await dev?.close()
  await fake?.close()
})

const read = () => fs.readFile(path.join(dev.root, PAGE), 'utf8')
const call = (id: string, name: string, args: unknown): FakeReply => ({
  toolCalls: [{ id, name, arguments: typeof args === 'string' ? args : JSON.stringify(args) }],
  usage: { prompt_tokens: 400, completion_tokens: 30 },
})
const answer = (text: string): FakeReply => ({ text: [text], usage: { prompt_tokens: 600, completion_tokens: 20 } })
const readCall = call('call_read', 'read_page', { path: PAGE })
const editCall = call('call_edit', 'edit_page', {
  path: PAGE,
  edits: [{ oldText: 'then rename it over the old one.', newText: `then rename it over the old one.${SENTENCE}` }],
})
/** The tool messages a request carried back to the model. */
const toolResults = (index: number) =>
  (fake.chatRequests[index]!.body.messages as { role: string; content: string }[]).filter((message) => message.role === 'tool').map((message) => message.content)
const offeredNames = (index: number) => (fake.chatRequests[index]!.body.tools ?? []).map((tool: { function: { name: string } }) => tool.function.name)
const writes = () => traffic.filter((entry) => /^(PUT|DELETE) \/files/.test(entry))

function agentRuntime() {
  const created = createTestRuntime(dev, { skills: builtinSkills, tools: builtinTools })
  started.push(created.runtime)
  return created
}

describe('the agent edits a page through tools', () => {
  it('reads, proposes an edit, and after approval changes only the quoted text', async () => {
    fake.enqueue(readCall, editCall, answer('Added a sentence about fsync to “Rename is atomic”.'))
    const { runtime, state } = agentRuntime()
    const running = runtime.processInput('add a sentence about fsync to the second section', { currentFile: PAGE })
    const card = await until(() => pendingCard(state.messages, 'approval'), 30_000, 'the approval card')
    expect(card.kind === 'approval' && card.proposal).toMatchObject({ kind: 'edit', path: PAGE, before: 'then rename it over the old one.' })
    expect(writes()).toEqual([])
    runtime.decide(card.id, { action: 'accept' })
    const record = await running
    expect(record).toMatchObject({ skill: 'agent', outcome: 'COMPLETED' })

    expect(await read()).toBe(SOURCE.replace('then rename it over the old one.', `then rename it over the old one.${SENTENCE}`))
    expect(offeredNames(0)).toEqual(['search_pages', 'list_pages', 'read_page', 'get_links', 'edit_page', 'create_page', 'delete_page'])
    const system = fake.chatRequests[0]!.body.messages[0].content as string
    expect(system).toContain(PAGE)
    expect(system).toMatch(/The blog has \d+ pages/)
    expect(JSON.parse(toolResults(1)[0]!)).toMatchObject({ path: PAGE, title: 'Durable Writes', totalLines: SOURCE.split('\n').length })
    expect(JSON.parse(toolResults(2)[1]!)).toEqual({ status: 'applied', path: PAGE })
    const rows = state.messages.filter((message) => message.kind === 'tool')
    expect(rows.map((row) => row.kind === 'tool' && [row.summary, row.status])).toEqual([
      [`Read ${PAGE}`, 'done'],
      [`Edited ${PAGE} (1 change)`, 'done'],
    ])
    expect(runtime.logger.entries().filter((entry) => entry.event === 'agent.tool.called')).toMatchObject([
      { tool: 'read_page', ok: true },
      { tool: 'edit_page', ok: true },
    ])
    const reply = state.messages.findLast((message) => message.kind === 'assistant')
    expect(reply).toMatchObject({ text: 'Added a sentence about fsync to “Rename is atomic”.', mode: 'ask' })
    expect(reply?.kind === 'assistant' && reply.cost?.calls).toBe(3)
    expect((await dev.api('/checkpoints')).json.checkpoints).toEqual([])
  }, 90_000)

  it('never overwrites the author: an edit to the page while the card waits becomes a "re-read it" error for the model', async () => {
    fake.enqueue(readCall, editCall, answer('The page changed while you were deciding; I left it as you wrote it.'))
    const { runtime, state } = agentRuntime()
    const running = runtime.processInput('add a sentence about fsync to the second section', { currentFile: PAGE })
    const card = await until(() => pendingCard(state.messages, 'approval'), 30_000, 'the approval card')
    const authors = SOURCE.replace('Two spaces stay here.', 'Two spaces stay here. The author added this meanwhile.')
    await fs.writeFile(path.join(dev.root, PAGE), authors)
    runtime.decide(card.id, { action: 'accept' })
    expect((await running)?.outcome).toBe('COMPLETED')

    expect(await read()).toBe(authors)
    const result = JSON.parse(toolResults(2)[1]!)
    expect(result.error.code).toBe('ERR_STALE')
    expect(result.error.message).toMatch(/changed after it was read.*Read it again/s)
    expect(state.messages.find((message) => message.kind === 'tool' && message.name === 'edit_page')).toMatchObject({ status: 'error' })
  }, 90_000)

  it('an unknown tool and broken JSON arguments come back to the model as errors, and it finishes', async () => {
    fake.enqueue(
      {
        toolCalls: [
          { id: 'call_a', name: 'summon_editor', arguments: '{}' },
          { id: 'call_b', name: 'read_page', arguments: '{"path": posts/durability.md}' },
          { id: 'call_c', name: 'read_page', arguments: '{"path": 42}' },
        ],
      },
      answer('Sorry, those calls failed; nothing changed.'),
    )
    const { runtime } = agentRuntime()
    expect((await runtime.processInput('tidy up this page please', { currentFile: PAGE }))?.outcome).toBe('COMPLETED')
    expect(runtime.logger.entries().filter((entry) => entry.event === 'agent.tool.called').map((entry) => entry.code)).toEqual(['ERR_UNKNOWN_TOOL', 'ERR_BAD_ARGUMENTS', 'ERR_BAD_ARGUMENTS'])
    const [unknown, broken, mistyped] = toolResults(1).map((text) => JSON.parse(text).error)
    expect(unknown).toMatchObject({ code: 'ERR_UNKNOWN_TOOL' })
    expect(unknown.message).toContain('read_page')
    expect(broken).toMatchObject({ code: 'ERR_BAD_ARGUMENTS' })
    expect(broken.message).toMatch(/not valid JSON/)
    expect(mistyped).toMatchObject({ code: 'ERR_BAD_ARGUMENTS', message: expect.stringContaining('arguments.path must be a string') })
    // The broken call goes back to the model as {} so the history stays valid JSON.
    const sent = fake.chatRequests[1]!.body.messages.find((message: { role: string }) => message.role === 'assistant')
    expect(sent.tool_calls.map((item: { function: { arguments: string } }) => item.function.arguments)).toEqual(['{}', '{}', '{"path": 42}'])
    expect(await read()).toBe(SOURCE)
  }, 90_000)

  it('plan mode offers read tools only, writes nothing, and "Run this plan" starts an ask turn carrying the plan', async () => {
    const plan = '1. In posts/durability.md, “Rename is atomic”: add a sentence about fsync.'
    fake.enqueue(readCall, editCall, answer(plan))
    const { runtime, state } = agentRuntime()
    runtime.approvalMode = 'plan'
    expect((await runtime.processInput('add a sentence about fsync to the second section', { currentFile: PAGE }))?.outcome).toBe('COMPLETED')
    for (const index of [0, 1, 2]) expect(offeredNames(index)).toEqual(['search_pages', 'list_pages', 'read_page', 'get_links'])
    expect(JSON.parse(toolResults(2)[1]!).error.code).toBe('ERR_TOOL_NOT_ALLOWED')
    expect(writes()).toEqual([])
    expect(await read()).toBe(SOURCE)
    const reply = state.messages.findLast((message) => message.kind === 'assistant')
    expect(reply).toMatchObject({ mode: 'plan', plan })

    fake.reset()
    traffic.length = 0
    fake.enqueue(readCall, editCall, answer('Done: the sentence is in.'))
    const running = runtime.runPlan(plan, { currentFile: PAGE })
    const card = await until(() => pendingCard(state.messages, 'approval'), 30_000, 'the approval card')
    runtime.decide(card.id, { action: 'accept' })
    expect((await running)?.outcome).toBe('COMPLETED')
    expect(offeredNames(0)).toContain('edit_page')
    expect(JSON.stringify(fake.chatRequests[0]!.body.messages.at(-1))).toContain('add a sentence about fsync')
    expect(writes()).toEqual(['PUT /files'])
    // The runtime locks the page before it writes it.
    expect(traffic.indexOf('POST /locks')).toBeGreaterThan(-1)
    expect(traffic.indexOf('POST /locks')).toBeLessThan(traffic.indexOf('PUT /files'))
    expect(await read()).toContain(SENTENCE)
  }, 90_000)

  it('Stop aborts the streaming answer within 200 ms, and a tool waiting for approval at once, with nothing written', async () => {
    fake.enqueue(readCall, { text: Array.from({ length: 300 }, (_, index) => `Word ${index}. `), chunkDelayMs: 20 })
    const { runtime } = agentRuntime()
    const running = runtime.processInput('explain this page at length', { currentFile: PAGE })
    const streaming = await until(() => (fake.chatRequests[1]?.sentAt.length ?? 0) > 5 && fake.chatRequests[1], 30_000, 'the second turn streaming')
    const stoppedAt = performance.now()
    expect(runtime.abort()).toBe(true)
    await fake.waitForClose(streaming, 1000)
    expect(streaming.closedAt! - stoppedAt).toBeLessThan(200)
    expect(streaming.completed).toBe(false)
    expect((await running)?.outcome).toBe('CANCELLED')

    fake.reset()
    fake.enqueue(readCall, editCall)
    const second = agentRuntime()
    const waiting = second.runtime.processInput('add a sentence about fsync to the second section', { currentFile: PAGE })
    const card = await until(() => pendingCard(second.state.messages, 'approval'), 30_000, 'the approval card')
    // The waiting tool is stopped at once: the task is cancelled before abort() returns, and a late Accept writes nothing.
    expect(second.runtime.abort()).toBe(true)
    expect(second.runtime.currentState).toBe('CANCELLED')
    second.runtime.decide(card.id, { action: 'accept' })
    expect((await waiting)?.outcome).toBe('CANCELLED')
    expect(fake.chatRequests).toHaveLength(2)
    expect(writes()).toEqual([])
    expect(await read()).toBe(SOURCE)
  }, 90_000)
})
