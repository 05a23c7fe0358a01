// Custom prompts: a file added to the real dev server's prompts folder becomes a slash command; a fake
// of the same contract (tests/fixtures/fake-sessions-server.ts) scripts the problem cases.
import fs from 'node:fs/promises'
import path from 'node:path'
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
  it('a prompt file added while the dev server runs becomes a command after its event, offering only its tools', async () => {
    const hmr = await dev.listen()
    try {
      const watcher = dev.server.watcher as unknown as { _readyEmitted?: boolean; once(event: 'ready', listener: () => void): void }
      if (!watcher._readyEmitted) await new Promise<void>((resolve) => watcher.once('ready', resolve))
      const { runtime } = createTestRuntime(dev, { skills: builtinSkills, tools: builtinTools, loadPrompts: (signal) => fetchPrompts(dev, signal) })
      started.push(runtime)
      await runtime.refreshPrompts()
      expect(runtime.commands.map((command) => command.name)).not.toContain('linkcheck')

      const since = hmr.events.length
      const folder = path.join(dev.root, '.vitepress/metablog/prompts')
      await fs.mkdir(folder, { recursive: true })
      await fs.writeFile(path.join(folder, 'linkcheck.md'), '---\ncommand: linkcheck\ndescription: Check the links of this page\nmode: ask\ntools: [get_links, read_page]\n---\nCheck the links of {{page}}. {{input}}\n')
      await hmr.waitFor((event) => event.event === 'metablog:prompts-updated' && hmr.events.indexOf(event) >= since, 15_000)
      await runtime.refreshPrompts()
      expect(runtime.commands.map((command) => command.name)).toContain('linkcheck')

      fake.enqueue(answer('Every link resolves.'))
      const record = await runtime.processInput('/linkcheck please', { currentFile: 'guide/index.md' })
      expect(record).toMatchObject({ skill: 'agent', outcome: 'COMPLETED' })
      expect(offered(0).sort()).toEqual(['get_links', 'read_page'])
      expect((fake.chatRequests[0]!.body.messages as { content: string }[]).at(-1)!.content).toBe('Check the links of guide/index.md. please')
    } finally {
      hmr.close()
    }
  }, 60_000)

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
