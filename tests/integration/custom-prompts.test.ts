// GET /prompts is still on the server branch: here it is served by the in-memory fake at the HTTP
// boundary (tests/fixtures/fake-sessions-server.ts), written to the same contract.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { fetchPrompts, type CustomPrompt } from '../../client/api/prompts.js'
import { builtinSkills } from '../../client/skills/index.js'
import { builtinTools } from '../../client/tools/index.js'
import { startFakeLlm, type FakeLlm, type FakeReply } from '../fixtures/fake-llm-server.js'
import { startFakeSessions } from '../fixtures/fake-sessions-server.js'
import { startDevServer, type DevServer } from '../helpers/dev-server.js'
import { createTestRuntime, fakeModelEnv } from '../helpers/runtime.js'

let fake: FakeLlm
let dev: DevServer
let server: Awaited<ReturnType<typeof startFakeSessions>>
const started: { abort(): boolean }[] = []

beforeAll(async () => {
  fake = await startFakeLlm()
  server = await startFakeSessions()
  dev = await startDevServer({ env: fakeModelEnv(fake) })
})

afterEach(() => {
  for (const runtime of started.splice(0)) runtime.abort()
  fake.reset()
})

afterAll(async () => {
  await dev?.close()
  await fake?.close()
  await server?.close()
})

const PROOFREAD: CustomPrompt = {
  command: 'proofread',
  description: 'Find typos on this page',
  mode: 'plan',
  tools: ['read_page', 'search_pages'],
  template: 'Proofread {{page}}. Focus: {{input}}. Selected: {{selection}}.',
  file: '.vitepress/metablog/prompts/proofread.md',
}

function promptRuntime() {
  const created = createTestRuntime(dev, { skills: builtinSkills, tools: builtinTools, loadPrompts: (signal) => fetchPrompts(server.connection, signal) })
  started.push(created.runtime)
  return created
}

const answer = (text: string): FakeReply => ({ text: [text], usage: { prompt_tokens: 300, completion_tokens: 20 } })
const offered = (index: number) => (fake.chatRequests[index]!.body.tools ?? []).map((tool: { function: { name: string } }) => tool.function.name)

describe('custom prompts', () => {
  it('join the slash menu and /help, refuse a built-in name, and come back fresh when listed again', async () => {
    server.setPrompts({ prompts: [PROOFREAD, { ...PROOFREAD, command: 'write', file: 'prompts/write.md' }], problems: [{ file: 'prompts/bad.md', message: 'front matter has no "command"' }] })
    const { runtime, state } = promptRuntime()
    const { problems } = await runtime.refreshPrompts()
    expect(problems).toEqual([
      { file: 'prompts/bad.md', message: 'front matter has no "command"' },
      { file: 'prompts/write.md', message: '/write is a built-in command; give this prompt another "command".' },
    ])
    expect(runtime.commands.map((command) => command.name)).toContain('proofread')
    expect(runtime.commands.at(-1)!.name).toBe('help')
    await runtime.processInput('/help')
    expect(state.messages.at(-1)).toMatchObject({ kind: 'assistant', text: expect.stringContaining('`/proofread` — Find typos on this page') })
    expect(state.messages.at(-1)).toMatchObject({ kind: 'assistant', text: expect.stringContaining('`/compact` — summarise the older turns') })

    // A file added later (the HMR event makes the page list them again).
    server.setPrompts({ prompts: [PROOFREAD, { ...PROOFREAD, command: 'tighten', description: 'Shorten', file: 'prompts/tighten.md' }], problems: [] })
    await runtime.refreshPrompts()
    expect(runtime.commands.map((command) => command.name)).toEqual(expect.arrayContaining(['proofread', 'tighten']))
  }, 60_000)

  it('running one fills its placeholders and starts an agent turn in its mode with only its allowed tools', async () => {
    server.setPrompts({ prompts: [PROOFREAD], problems: [] })
    fake.enqueue(answer('1. Fix "teh" in the intro.'))
    const { runtime, state } = promptRuntime()
    await runtime.refreshPrompts()
    const record = await runtime.processInput('/proofread the intro', { currentFile: 'posts/atomic-file-writes.md', selectedText: 'teh rename' })
    expect(record).toMatchObject({ skill: 'agent', outcome: 'COMPLETED' })
    expect(offered(0)).toEqual(['search_pages', 'read_page'])
    const messages = fake.chatRequests[0]!.body.messages as { role: string; content: string }[]
    expect(messages.at(-1)).toEqual({ role: 'user', content: 'Proofread posts/atomic-file-writes.md. Focus: the intro. Selected: teh rename.' })
    expect(messages[0]!.content).toContain('PLAN MODE')
    expect(state.messages.findLast((message) => message.kind === 'assistant')).toMatchObject({ mode: 'plan' })
  }, 60_000)
})
