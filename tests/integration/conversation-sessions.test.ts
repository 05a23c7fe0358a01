// The session log on the dev server's real routes, across a restart; a fault-injecting fake of the
// same contract (tests/fixtures/fake-sessions-server.ts) covers an append that fails.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { createSessionsApi } from '../../client/api/sessions.js'
import { sessionMarkdown } from '../../client/runtime/conversation/session-entries.js'
import { builtinSkills } from '../../client/skills/index.js'
import { builtinTools } from '../../client/tools/index.js'
import { startFakeLlm, type FakeLlm, type FakeReply } from '../fixtures/fake-llm-server.js'
import { startFakeSessions } from '../fixtures/fake-sessions-server.js'
import { startDevServer, type DevServer } from '../helpers/dev-server.js'
import { createTestRuntime, fakeModelEnv, until } from '../helpers/runtime.js'

let fake: FakeLlm
let dev: DevServer
let sessions: Awaited<ReturnType<typeof startFakeSessions>>
const started: { abort(): boolean }[] = []

beforeAll(async () => {
  fake = await startFakeLlm()
  sessions = await startFakeSessions()
  dev = await startDevServer({ env: fakeModelEnv(fake) })
})

afterEach(() => {
  for (const runtime of started.splice(0)) runtime.abort()
  fake.reset()
})

afterAll(async () => {
  await dev?.close()
  await fake?.close()
  await sessions?.close()
})

const answer = (text: string): FakeReply => ({ text: [text], usage: { prompt_tokens: 600, completion_tokens: 20 } })
const call = (id: string, name: string, args: unknown): FakeReply => ({ toolCalls: [{ id, name, arguments: JSON.stringify(args) }], usage: { prompt_tokens: 400, completion_tokens: 30 } })

function loggedRuntime(connection: { origin: string; token: string } = sessions.connection) {
  const created = createTestRuntime(dev, { skills: builtinSkills, tools: builtinTools, sessions: createSessionsApi(connection) })
  started.push(created.runtime)
  return created
}

/** The log as the dev server stores it. */
async function logged(id: string): Promise<{ type: string; [field: string]: unknown }[]> {
  const response = await dev.api(`/sessions/${id}`)
  return response.status === 200 ? response.json.entries : []
}

describe('the session log', () => {
  it('logs every turn on the dev server; after a restart History lists it, and Continue brings its context into the next request', async () => {
    fake.enqueue(call('call_search', 'search_pages', { query: 'fsync' }), answer('Two posts mention fsync.'), answer('The first one is about atomic writes.'))
    const first = loggedRuntime(dev).runtime
    await first.processInput('which posts mention fsync?', { currentFile: 'posts/atomic-file-writes.md' })
    await first.processInput('tell me more about the first one')
    const id = first.conversation.sessionId!
    await until(async () => (await logged(id)).length === 9, 5000, 'the log')
    const entries = await logged(id)
    expect(entries.map((entry) => entry.type)).toEqual(['meta', 'user', 'tool-call', 'tool-result', 'assistant', 'usage', 'user', 'assistant', 'usage'])
    expect(entries[0]).toMatchObject({ type: 'meta', mode: 'ask', model: 'gpt-4o-mini' })
    expect(entries[1]).toMatchObject({ v: 1, type: 'user', text: 'which posts mention fsync?', currentFile: 'posts/atomic-file-writes.md' })
    expect(entries[2]).toMatchObject({ type: 'tool-call', name: 'search_pages', arguments: { query: 'fsync' } })
    expect(entries[3]).toMatchObject({ type: 'tool-result', ok: true, summary: expect.stringMatching(/^Searched “fsync”/) })
    expect(entries[5]).toMatchObject({ type: 'usage', promptTokens: 1000, completionTokens: 50, model: 'gpt-4o-mini' })
    expect(Date.parse(entries[1]!.at as string)).not.toBeNaN()

    // The dev server restarts over the same folder; a fresh runtime, as after a reload.
    first.abort()
    await dev.server.close()
    dev = await startDevServer({ root: dev.root, env: fakeModelEnv(fake) })
    const { runtime, state } = loggedRuntime(dev)
    const { sessions: listed } = await runtime.sessions!.list()
    expect(listed).toContainEqual(expect.objectContaining({ id, title: 'which posts mention fsync?' }))
    const messages = await runtime.continueSession(id)
    expect(messages.map((message) => message.kind)).toEqual(['user', 'tool', 'assistant', 'user', 'assistant'])
    fake.reset()
    fake.enqueue(answer('It renames a temp file.'))
    await runtime.processInput('and how does it avoid torn writes?')
    const sent = (fake.chatRequests[0]!.body.messages as { role: string; content: string }[]).filter((message) => message.role !== 'system')
    expect(sent).toEqual([
      { role: 'user', content: 'which posts mention fsync?' },
      { role: 'assistant', content: expect.stringMatching(/^\[Tools used: Searched “fsync”.*\]\n\nTwo posts mention fsync\.$/s) },
      { role: 'user', content: 'tell me more about the first one' },
      { role: 'assistant', content: 'The first one is about atomic writes.' },
      { role: 'user', content: 'and how does it avoid torn writes?' },
    ])
    // Later turns go to the same log.
    await until(async () => (await logged(id)).some((entry) => entry.type === 'assistant' && entry.text === 'It renames a temp file.'), 5000, 'the continued log')
    expect(state.messages.at(-1)).toMatchObject({ kind: 'assistant', text: 'It renames a temp file.' })

    const markdown = sessionMarkdown(listed.find((session) => session.id === id)!, (await runtime.sessions!.read(id)).entries)
    expect(markdown).toMatch(/^# which posts mention fsync\?\n/)
    expect(markdown).toContain('## Author\n\nand how does it avoid torn writes?')
    expect(markdown).toContain('## MetaBlog\n\nIt renames a temp file.')
  }, 120_000)

  it('keeps entries through a failed append and sends them with the next batch', async () => {
    fake.enqueue(answer('One.'), answer('Two.'))
    const { runtime } = loggedRuntime()
    sessions.failNext(1)
    await runtime.processInput('first question about caching')
    await new Promise((resolve) => setTimeout(resolve, 400))
    await runtime.processInput('second question about caching')
    const id = runtime.conversation.sessionId!
    await until(() => sessions.logs.get(id)?.lines.some((line) => line.includes('second question')), 5000, 'the second batch')
    const texts = sessions.logs.get(id)!.lines.map((line) => JSON.parse(line)).filter((entry) => entry.type === 'user').map((entry) => entry.text)
    expect(texts).toEqual(['first question about caching', 'second question about caching'])
  }, 90_000)
})
