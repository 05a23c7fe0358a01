// The assistant store over the real runtime, a real dev server and a fake OpenAI-compatible model:
// Retry on an error card, and the conversation across Stop → Resume and a reload.
import fs from 'node:fs/promises'
import path from 'node:path'
import { createPinia, setActivePinia } from 'pinia'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest'
import { createLlmClient } from '../../../../client/api/llm-client'
import { createMetaBlogApi } from '../../../../client/api/metablog-api'
import { AgentRuntime } from '../../../../client/runtime/agent-runtime'
import { createLogger } from '../../../../client/runtime/logger'
import { writeSkill } from '../../../../client/skills/write'
import { useAssistantStore } from '../../../../client/stores/assistant'
import { startFakeLlm, type FakeLlm } from '../../../fixtures/fake-llm-server'
import { startDevServer, type DevServer } from '../../../helpers/dev-server'
import { DETAILS, OUTLINE, content, fakeModelEnv, requestsContaining, sentences, until } from '../../../helpers/runtime'

let fake: FakeLlm
let dev: DevServer

beforeAll(async () => {
  fake = await startFakeLlm()
  dev = await startDevServer({ env: fakeModelEnv(fake) })
})

/** The tab's sessionStorage, so a new store can load the conversation as after a reload. */
function memoryStorage() {
  const items = new Map<string, string>()
  return {
    getItem: (key: string) => items.get(key) ?? null,
    setItem: (key: string, value: string) => void items.set(key, value),
    removeItem: (key: string) => void items.delete(key),
  }
}

beforeEach(() => {
  vi.stubGlobal('sessionStorage', memoryStorage())
})

afterEach(async () => {
  vi.unstubAllGlobals()
  vi.restoreAllMocks()
  fake.reset()
  const { json } = await dev.api('/checkpoints')
  for (const { taskId } of json.checkpoints) await dev.api(`/checkpoints/${taskId}`, { method: 'DELETE' })
  await fs.rm(path.join(dev.root, 'posts'), { recursive: true, force: true })
})

afterAll(async () => {
  await dev?.close()
  await fake?.close()
})

/** A page load: a fresh Pinia, the store, and its runtime against the dev server. */
async function openPage() {
  setActivePinia(createPinia())
  const store = useAssistantStore()
  const connection = { origin: dev.origin, token: dev.token }
  store.connect((state) => new AgentRuntime({ api: createMetaBlogApi(connection), llm: createLlmClient(connection), skills: [writeSkill], state, logger: createLogger({ sink: null }) }))
  await until(() => store.ready, 10_000, 'the runtime')
  return store
}

const exists = (page: string) => fs.access(path.join(dev.root, page)).then(() => true, () => false)

function expectUniqueIds(store: ReturnType<typeof useAssistantStore>) {
  const ids = store.messages.map((message) => message.id)
  expect(new Set(ids).size).toBe(ids.length)
}

/** The task's own replies, in order. */
function replies(store: ReturnType<typeof useAssistantStore>) {
  return store.messages.flatMap((message) => (message.kind === 'assistant' && /^(Drafting|Saved)/.test(message.text) ? [message.text] : []))
}

describe('Retry on an error card', () => {
  it('resumes a task whose finished steps were saved, instead of starting it again', async () => {
    fake.enqueue(OUTLINE)
    fake.setDefault({ status: 500, errorMessage: 'The server had an error.' })
    const store = await openPage()
    store.send('write a post about ETags')
    await until(() => store.messages.some((message) => message.kind === 'error') && !store.isWorking && store.resumable.length === 1, 15_000, 'the error card')
    const card = store.messages.find((message) => message.kind === 'error')!
    expect(card).toMatchObject({ code: 'ERR_LLM_UPSTREAM', message: expect.stringContaining('The finished steps are saved: resume to continue from there.') })

    fake.reset()
    fake.enqueue(content(['# Understanding ETags\n\n', 'An ETag names one version of a page.\n']), DETAILS)
    expect(store.retry(card.id)).toBe(true)
    await until(() => store.status === 'COMPLETED', 15_000, 'the resumed task')

    expect(requestsContaining(fake, 'Write an outline')).toHaveLength(0)
    expect(await exists('posts/understanding-etags-2.md')).toBe(false)
    const page = await fs.readFile(path.join(dev.root, 'posts/understanding-etags.md'), 'utf8')
    expect(page).toContain('An ETag names one version of a page.')
    expect(page).not.toContain('_Drafting…_')
    expect(store.resumable).toEqual([])
    // Used up: a second Retry would run the task again.
    expect(store.messages.find((message) => message.id === card.id)).toMatchObject({ retryText: undefined })
  }, 60_000)
})

describe('the conversation of a resumed task', () => {
  async function writeThenStop(store: ReturnType<typeof useAssistantStore>) {
    fake.enqueue(OUTLINE, content(['# Understanding ETags\n\n', ...sentences(300)], 20))
    store.send('write a post about ETags')
    await until(() => replies(store).length === 1 && store.progress?.step === 'Writing the content', 15_000, 'the draft to stream')
    expect(store.stop()).toBe(true)
    await until(() => !store.isWorking && store.resumable.length === 1, 10_000, 'the stop')
    return store.resumable[0]!.taskId
  }

  /** Resumes the stopped draft and checks the conversation holds each reply once, in order. */
  async function resumeToTheEnd(store: ReturnType<typeof useAssistantStore>, taskId: string) {
    fake.enqueue(content(['The end.\n']), DETAILS)
    expect(await store.resume(taskId)).toEqual({ status: 'started' })
    await until(() => store.status === 'COMPLETED', 15_000, 'the resumed task')
    expectUniqueIds(store)
    expect(replies(store)).toEqual([expect.stringMatching(/^Drafting \[Understanding ETags\]/), expect.stringMatching(/^Saved \*\*\[Understanding ETags\]/)])
  }

  it('keeps each reply after Stop → Resume in the same tab', async () => {
    const store = await openPage()
    const taskId = await writeThenStop(store)
    await resumeToTheEnd(store, taskId)
  }, 60_000)

  it('keeps each reply after a reload and a resume', async () => {
    const first = await openPage()
    const taskId = await writeThenStop(first)
    first.persist()

    const store = await openPage()
    expect(replies(store)).toHaveLength(1)
    await resumeToTheEnd(store, taskId)
  }, 60_000)
})
