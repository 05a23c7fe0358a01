import fs from 'node:fs/promises'
import path from 'node:path'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { builtinSkills } from '../../client/skills/index.js'
import { builtinTools } from '../../client/tools/index.js'
import { startFakeLlm, type FakeLlm, type FakeReply } from '../fixtures/fake-llm-server.js'
import { startDevServer, type DevServer } from '../helpers/dev-server.js'
import { createTestRuntime, fakeModelEnv, pendingCard, until } from '../helpers/runtime.js'

let fake: FakeLlm
let dev: DevServer

beforeAll(async () => {
  fake = await startFakeLlm()
  dev = await startDevServer({ env: fakeModelEnv(fake) })
})

/** Runtimes a test started: a test that fails mid-task must not leave one consuming the next test's replies. */
const started: { abort(): boolean }[] = []

afterEach(() => {
  for (const runtime of started.splice(0)) runtime.abort()
  fake.reset()
})

afterAll(async () => {
  await dev?.close()
  await fake?.close()
})

const calls = (...list: [name: string, args: unknown][]): FakeReply => ({
  toolCalls: list.map(([name, args], index) => ({ id: `call_${index}`, name, arguments: JSON.stringify(args) })),
})
const done: FakeReply = { text: ['Done.'] }
/** The tool results the request at `index` carried back to the model, parsed. */
const results = (index: number) =>
  (fake.chatRequests[index]!.body.messages as { role: string; content: string }[]).filter((message) => message.role === 'tool').map((message) => JSON.parse(message.content))
const exists = (page: string) => fs.access(path.join(dev.root, page)).then(() => true, () => false)

function agent() {
  const created = createTestRuntime(dev, { skills: builtinSkills, tools: builtinTools })
  started.push(created.runtime)
  return created
}

describe('the read tools against the real dev server', () => {
  it('search, list, read a line range and links come back in the contract shapes', async () => {
    fake.enqueue(
      calls(
        ['search_pages', { query: 'install', limit: 1 }],
        ['list_pages', { folder: 'guide' }],
        ['read_page', { path: 'guide/getting-started.md', startLine: 8, endLine: 10 }],
        ['get_links', { path: 'index.md' }],
      ),
      done,
    )
    const { runtime, state } = agent()
    expect((await runtime.processInput('tell me about the guide'))?.outcome).toBe('COMPLETED')
    const [search, list, read, links] = results(1)
    expect(search).toEqual([{ path: 'guide/getting-started.md', title: 'Getting Started', snippet: expect.any(String) }])
    expect(list).toEqual(
      expect.arrayContaining([{ path: 'guide/getting-started.md', title: 'Getting Started', tags: ['intro'], date: expect.stringMatching(/^2026-02-01/), draft: false }]),
    )
    expect(list.every((page: { path: string }) => page.path.startsWith('guide/'))).toBe(true)
    expect(read).toEqual({ path: 'guide/getting-started.md', title: 'Getting Started', content: '# Getting Started\n\n## Install', totalLines: 13 })
    expect(links).toEqual({ outgoing: ['guide/getting-started.md'], backlinks: ['guide/getting-started.md'], unresolved: ['Missing Page'] })
    expect(state.messages.filter((message) => message.kind === 'tool').map((row) => row.kind === 'tool' && row.summary)).toEqual([
      'Searched “install” — 1 page',
      'Listed pages in guide — 2',
      'Read guide/getting-started.md (lines 8–10)',
      'Links of index.md — 1 out, 1 in',
    ])
  }, 90_000)
})

describe('the write tools against the real dev server', () => {
  it('create_page makes a new page with its title after approval, and never overwrites one', async () => {
    fake.enqueue(
      calls(['create_page', { path: 'posts/fsync.md', title: 'Why fsync: "durability"', content: '# Why fsync\n\nBecause rename alone is not durable.' }]),
      calls(['create_page', { path: 'posts/fsync.md', title: 'Again', content: 'Overwrite?' }]),
      done,
    )
    const { runtime, state } = agent()
    const running = runtime.processInput('write a short note on fsync as a new page')
    const card = await until(() => pendingCard(state.messages, 'approval'), 30_000, 'the approval card')
    expect(card.kind === 'approval' && card.proposal).toMatchObject({ kind: 'create', path: 'posts/fsync.md', before: '' })
    runtime.decide(card.id, { action: 'accept' })
    expect((await running)?.outcome).toBe('COMPLETED')
    // The second create is refused before any card: the page exists.
    expect(state.messages.filter((message) => message.kind === 'approval')).toHaveLength(1)
    expect(await fs.readFile(path.join(dev.root, 'posts/fsync.md'), 'utf8')).toBe('---\ntitle: "Why fsync: \\"durability\\""\n---\n\n# Why fsync\n\nBecause rename alone is not durable.\n')
    expect(results(1)).toEqual([{ status: 'created', path: 'posts/fsync.md' }])
    expect(results(2)[1].error).toMatchObject({ code: 'ERR_EXISTS' })
    const { json } = await dev.api('/pages')
    // The page's first real heading names it; the quoted front-matter title survived YAML intact above.
    expect(json.pages.find((page: { path: string }) => page.path === 'posts/fsync.md')?.title).toBe('Why fsync')
  }, 90_000)

  it('delete_page asks even in auto-edit mode, and a rejection with its reason goes back to the model', async () => {
    await fs.mkdir(path.join(dev.root, 'posts'), { recursive: true })
    await fs.writeFile(path.join(dev.root, 'posts/old.md'), '# Old\n')
    fake.enqueue(calls(['delete_page', { path: 'posts/old.md' }]), calls(['delete_page', { path: 'posts/old.md' }]), done)
    const { runtime, state } = agent()
    runtime.approvalMode = 'auto-edit'
    const running = runtime.processInput('remove my old page')
    const card = await until(() => pendingCard(state.messages, 'approval'), 30_000, 'the delete card')
    runtime.decide(card.id, { action: 'reject', reason: 'I still link to it' })
    const again = await until(() => state.messages.filter((message) => message.kind === 'approval' && message.status === 'pending')[0], 30_000, 'the second card')
    expect(await exists('posts/old.md')).toBe(true)
    runtime.decide(again.id, { action: 'accept' })
    expect((await running)?.outcome).toBe('COMPLETED')
    expect(results(1)).toEqual([{ status: 'rejected', reason: 'rejected by the author (I still link to it); the page is kept' }])
    expect(results(2)[1]).toEqual({ status: 'deleted', path: 'posts/old.md' })
    expect(await exists('posts/old.md')).toBe(false)
  }, 90_000)

  it('auto-edit applies an edit at once; a bad path or a refused write comes back as the server\'s error', async () => {
    await fs.mkdir(path.join(dev.root, 'posts'), { recursive: true })
    await fs.writeFile(path.join(dev.root, 'posts/auto.md'), '# Auto\n\nOne.\n')
    fake.enqueue(
      calls(['edit_page', { path: 'posts/auto.md', edits: [{ oldText: 'One.', newText: 'One. Two.' }] }], ['read_page', { path: '../outside.md' }], ['create_page', { path: '.vitepress/config.md', title: 'x', content: 'x' }]),
      done,
    )
    const { runtime, state } = agent()
    runtime.approvalMode = 'auto-edit'
    const running = runtime.processInput('extend the auto page')
    expect((await running)?.outcome).toBe('COMPLETED')
    expect(await fs.readFile(path.join(dev.root, 'posts/auto.md'), 'utf8')).toBe('# Auto\n\nOne. Two.\n')
    const [edited, outside, hidden] = results(1)
    expect(edited).toEqual({ status: 'applied', path: 'posts/auto.md' })
    expect(outside.error).toMatchObject({ code: 'ERR_BAD_PATH', message: expect.any(String) })
    expect(hidden.error).toMatchObject({ code: 'ERR_BAD_PATH' })
    // The edit's card shows as accepted; the bad create_page path is refused before any card.
    expect(state.messages.filter((message) => message.kind === 'approval').map((card) => card.kind === 'approval' && card.status)).toEqual(['accepted'])
  }, 90_000)
})

describe('a model that cannot call tools', () => {
  it('goes on in the text action protocol, saying so, instead of failing', async () => {
    fake.enqueue({ status: 400, errorMessage: "'tools' is not supported by this model", errorCode: 'invalid_request_error' }, { text: ['I can only answer from what I know.'] })
    const { runtime, state } = agent()
    expect((await runtime.processInput('compare my two newest posts'))?.outcome).toBe('COMPLETED')
    expect(state.messages.some((message) => message.kind === 'error')).toBe(false)
    expect(JSON.stringify(state.messages)).toContain('plain-text action protocol')
    expect(fake.chatRequests.at(-1)!.body.tools).toBeUndefined()
  }, 90_000)
})

