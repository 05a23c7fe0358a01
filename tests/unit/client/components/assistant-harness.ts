// A real AgentRuntime behind the assistant store, with an in-memory dev-server API and scripted skills.
import { createPinia, setActivePinia } from 'pinia'
import { vi } from 'vitest'
import type { MetaBlogApi } from '../../../../client/api/metablog-api'
import { AgentRuntime } from '../../../../client/runtime/agent-runtime'
import { createLogger } from '../../../../client/runtime/logger'
import type { Skill, SkillContext } from '../../../../client/runtime/types'
import { useAssistantStore } from '../../../../client/stores/assistant'
import type { Checkpoint, LlmStatusResponse } from '../../../../plugin/protocol'

export const UNCONFIGURED: LlmStatusResponse = {
  configured: false,
  provider: null,
  model: null,
  baseURLHost: null,
  prices: {},
  instructions: 'No model is configured. To connect one:\n1. Create docs/.env with OPENAI_API_KEY=your-key.\n2. Restart the dev server.',
}

export const CONFIGURED: LlmStatusResponse = {
  configured: true,
  provider: 'openai',
  model: 'gpt-4o-mini',
  baseURLHost: 'api.openai.com',
  prices: {},
  instructions: null,
}

export interface Deferred<T = void> {
  promise: Promise<T>
  resolve(value: T): void
}

export function deferred<T = void>(): Deferred<T> {
  let resolve!: (value: T) => void
  const promise = new Promise<T>((done) => (resolve = done))
  return { promise, resolve }
}

export function checkpoint(overrides: Partial<Checkpoint> = {}): Checkpoint {
  return {
    taskId: 'task-resume-1',
    skill: 'scripted',
    title: 'Write a post about ETags',
    inputs: { text: '/ask etags', intent: 'answer_question', params: {} },
    steps: [{ id: 'one', finishedAt: 1 }],
    expectedHashes: {},
    createdPaths: [],
    totalSteps: 3,
    updatedAt: Date.now() - 5 * 60_000,
    ...overrides,
  }
}

export interface FakeBlog {
  status?: LlmStatusResponse
  checkpoints?: Checkpoint[]
  /** Current page hashes, for the resume risk check. */
  hashes?: Record<string, string>
  /** What GET /llm/models answers; by default only the configured model. */
  models?: string[]
}

export function createFakeApi(blog: FakeBlog = {}) {
  const checkpoints = [...(blog.checkpoints ?? [])]
  const api = {
    llmStatus: vi.fn(async () => blog.status ?? UNCONFIGURED),
    llmModels: vi.fn(async () => {
      const current = (blog.status ?? UNCONFIGURED).model
      return { models: blog.models ?? (current ? [current] : []), current, listed: blog.models !== undefined }
    }),
    listCheckpoints: vi.fn(async () => ({ checkpoints: structuredClone(checkpoints) })),
    saveCheckpoint: vi.fn(async (saved: Omit<Checkpoint, 'updatedAt'>) => {
      const index = checkpoints.findIndex((item) => item.taskId === saved.taskId)
      const entry = { ...saved, updatedAt: Date.now() }
      if (index === -1) checkpoints.push(entry)
      else checkpoints[index] = entry
      return { taskId: saved.taskId, updatedAt: entry.updatedAt }
    }),
    deleteCheckpoint: vi.fn(async (taskId: string) => {
      const index = checkpoints.findIndex((item) => item.taskId === taskId)
      if (index !== -1) checkpoints.splice(index, 1)
      return { deleted: index !== -1 }
    }),
    releaseLocks: vi.fn(async () => ({ released: 0 })),
    readFile: vi.fn(async (path: string) => {
      const hash = blog.hashes?.[path]
      if (!hash) throw Object.assign(new Error(`No page ${path}.`), { code: 'ERR_NOT_FOUND' })
      return { path, content: '', hash }
    }),
    readHash: vi.fn(async (path: string) => blog.hashes?.[path] ?? null),
  }
  return { api, checkpoints }
}

/** Steps the test drives: each waits for `gates[id]` when one is set, then runs `actions[id]`. */
export function scriptedSkill(actions: Record<string, (context: SkillContext) => unknown>, gates: Record<string, Deferred> = {}): Skill {
  return {
    name: 'scripted',
    intents: ['answer_question'],
    needsModel: false,
    title: (inputs) => `Answer: ${inputs.params.query ?? inputs.text}`,
    steps: Object.keys(actions).map((id) => ({
      id,
      title: `Step ${id}`,
      async run(context: SkillContext) {
        // Like a real step's fetch, waiting ends when the task is stopped.
        const gate = gates[id]
        if (gate) {
          const stopped = new Promise((_, reject) => context.signal.addEventListener('abort', () => reject(context.signal.reason), { once: true }))
          await Promise.race([gate.promise, stopped])
        }
        return actions[id]!(context)
      },
    })),
  }
}

/** A fresh Pinia with the assistant store connected to a real runtime over the fake API. */
export async function setUpAssistant(options: { blog?: FakeBlog; skills?: Skill[] } = {}) {
  const pinia = createPinia()
  setActivePinia(pinia)
  const { api, checkpoints } = createFakeApi(options.blog)
  let runtime!: AgentRuntime
  const store = useAssistantStore()
  store.connect((state) => {
    runtime = new AgentRuntime({ api: api as unknown as MetaBlogApi, skills: options.skills ?? [], state, logger: createLogger({ sink: null }) })
    return runtime
  })
  await runtime.initialize()
  await flush()
  return { pinia, store, api, runtime, checkpoints }
}

/** Lets promises and Vue's scheduler settle. */
export async function flush(times = 5): Promise<void> {
  for (let index = 0; index < times; index++) await new Promise((resolve) => setTimeout(resolve, 0))
}

export async function until(probe: () => unknown, what = 'condition', timeoutMs = 2000): Promise<void> {
  const started = Date.now()
  while (!probe()) {
    if (Date.now() - started > timeoutMs) throw new Error(`timed out waiting for ${what}`)
    await new Promise((resolve) => setTimeout(resolve, 5))
  }
}
