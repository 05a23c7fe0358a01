// The model picked in the panel belongs to the conversation: it is logged with it, comes back after a
// reload and with History's "Continue", and a new conversation starts on the configured model.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { createSessionsApi } from '../../client/api/sessions.js'
import { builtinSkills } from '../../client/skills/index.js'
import { builtinTools } from '../../client/tools/index.js'
import { startFakeLlm, type FakeLlm, type FakeReply } from '../fixtures/fake-llm-server.js'
import { startDevServer, type DevServer } from '../helpers/dev-server.js'
import { createTestRuntime, fakeModelEnv, until } from '../helpers/runtime.js'

let fake: FakeLlm
let dev: DevServer
const started: { abort(): boolean }[] = []

beforeAll(async () => {
  fake = await startFakeLlm({ models: ['fake-model', 'alpha-small', 'zeta-large'] })
  dev = await startDevServer({ env: fakeModelEnv(fake) })
}, 120_000)

afterEach(() => {
  for (const runtime of started.splice(0)) runtime.abort()
  fake.reset()
})

afterAll(async () => {
  await dev?.close()
  await fake?.close()
})

const answer = (text: string): FakeReply => ({ text: [text], usage: { prompt_tokens: 300, completion_tokens: 10 } })

/** A runtime as a page load builds it, logging to the dev server's real session routes. */
function pageLoad() {
  const created = createTestRuntime(dev, { skills: builtinSkills, tools: builtinTools, sessions: createSessionsApi({ origin: dev.origin, token: dev.token }) })
  started.push(created.runtime)
  return created
}

/** Asks a question and returns the model the fake was asked with. */
async function ask(runtime: ReturnType<typeof pageLoad>['runtime'], text: string): Promise<string> {
  fake.enqueue(answer(`Answer to ${text}`))
  const before = fake.chatRequests.length
  expect(await runtime.processInput(text)).toMatchObject({ skill: 'agent', outcome: 'COMPLETED' })
  expect(fake.chatRequests.length).toBe(before + 1)
  return fake.chatRequests.at(-1)!.body.model
}

const logged = async (id: string) => ((await dev.api(`/sessions/${id}`)).json.entries ?? []) as { type: string; model?: string }[]

describe('the model of a conversation', () => {
  it('is logged with it, survives a reload and Continue, and a new conversation starts on the default', async () => {
    const first = pageLoad()
    const chosen: (string | null)[] = []
    first.runtime.bus.on('llm:modelChosen', ({ model }) => chosen.push(model))
    await first.runtime.initialize()
    first.runtime.chooseModel('alpha-small')
    expect(await ask(first.runtime, 'what is an ETag?')).toBe('alpha-small')
    // Picked again mid-conversation: logged as a setting from here on.
    first.runtime.chooseModel('zeta-large')
    expect(await ask(first.runtime, 'and Last-Modified?')).toBe('zeta-large')
    expect(chosen).toEqual(['alpha-small', 'zeta-large'])
    const sessionId = first.runtime.conversation.sessionId!
    await until(async () => (await logged(sessionId)).filter((entry) => entry.type === 'assistant').length === 2, 10_000, 'the log')
    expect((await logged(sessionId)).filter((entry) => entry.type === 'meta').map((entry) => entry.model)).toEqual(['alpha-small', 'zeta-large'])

    // A reload: the panel restores the conversation from its log, model included.
    const reloaded = pageLoad()
    await reloaded.runtime.restoreSession(sessionId)
    expect(reloaded.runtime.model).toBe('zeta-large')
    expect(await ask(reloaded.runtime, 'and Cache-Control?')).toBe('zeta-large')

    // New conversation: the configured model.
    reloaded.runtime.newConversation()
    expect(reloaded.runtime.model).toBe('gpt-4o-mini')
    expect(await ask(reloaded.runtime, 'something else')).toBe('gpt-4o-mini')
    const secondId = reloaded.runtime.conversation.sessionId!
    expect(secondId).not.toBe(sessionId)

    // History's Continue brings the first conversation's model back; continuing the second, its default.
    await reloaded.runtime.continueSession(sessionId)
    expect(reloaded.runtime.model).toBe('zeta-large')
    expect(await ask(reloaded.runtime, 'back to ETags')).toBe('zeta-large')
    await until(async () => (await logged(secondId)).some((entry) => entry.type === 'assistant'), 10_000, 'the second log')
    await reloaded.runtime.continueSession(secondId)
    expect(reloaded.runtime.model).toBe('gpt-4o-mini')
    expect(await ask(reloaded.runtime, 'and again')).toBe('gpt-4o-mini')
  }, 90_000)
})
