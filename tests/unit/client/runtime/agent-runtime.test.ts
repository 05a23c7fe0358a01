import type OpenAI from 'openai'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { LlmError, SkillError } from '../../../../client/api/errors'
import type { MetaBlogApi } from '../../../../client/api/metablog-api'
import { AgentRuntime, HISTORY_LIMIT } from '../../../../client/runtime/agent-runtime'
import { createPlainChatState } from '../../../../client/runtime/chat-state'
import { HEARTBEAT_MS, RUNNING_ELSEWHERE_MS } from '../../../../client/runtime/checkpoint-saver'
import { createLogger } from '../../../../client/runtime/logger'
import { STOPPED } from '../../../../client/runtime/messages'
import { Vocabulary } from '../../../../client/runtime/vocabulary'
import { builtinSkills } from '../../../../client/skills'
import type { Skill } from '../../../../client/runtime/types'
import { CONFIGURED, checkpoint, createFakeApi, deferred, scriptedSkill, until, type FakeBlog } from '../components/assistant-harness'

const HELP = new Vocabulary(builtinSkills).help

type FakeApi = ReturnType<typeof createFakeApi>

/** `server` lets two runtimes (two tabs) share one fake dev server. */
function setUp(options: { blog?: FakeBlog; skills?: Skill[]; llm?: OpenAI; watchdogMs?: number; server?: FakeApi; tabId?: string } = {}) {
  const { api, checkpoints } = options.server ?? createFakeApi(options.blog)
  const state = createPlainChatState()
  const runtime = new AgentRuntime({
    api: api as unknown as MetaBlogApi,
    llm: options.llm ?? null,
    skills: options.skills ?? [],
    state,
    logger: createLogger({ sink: null }),
    watchdogMs: options.watchdogMs,
    tabId: options.tabId ?? 'tab-under-test',
  })
  return { api, checkpoints, state, runtime }
}

/** An OpenAI client whose completions never answer, until the request is aborted. */
function hangingModel() {
  const create = vi.fn((_request: unknown, options: { signal?: AbortSignal }) => {
    return new Promise((_resolve, reject) => options.signal?.addEventListener('abort', () => reject(new DOMException('Aborted.', 'AbortError'))))
  })
  return { create, llm: { chat: { completions: { create } } } as unknown as OpenAI }
}

const waitsForStop = () => scriptedSkill({ one: () => undefined }, { one: deferred() })

describe('AgentRuntime', () => {
  it('a stuck task fails with ERR_WATCHDOG and a clear message, not a DOMException code', async () => {
    const { runtime, state } = setUp({ skills: [waitsForStop()], watchdogMs: 40 })
    const record = await runtime.processInput('/ask anything')
    expect(record?.outcome).toBe('ERROR')
    const error = state.messages.find((message) => message.kind === 'error')
    expect(error).toMatchObject({ code: 'ERR_WATCHDOG', message: 'The task stopped making progress for 1 second and was stopped. The task is saved: resume it to try again.' })
    // A watchdog stop may pass on its own: the task stays resumable.
    expect(state.resumable.map((task) => task.taskId)).toEqual([record!.taskId])
  })

  it('Stop while the model classifies the request cancels it, and nothing starts afterwards', async () => {
    const { create, llm } = hangingModel()
    const started = vi.fn()
    const { runtime, state } = setUp({ blog: { status: CONFIGURED }, skills: [scriptedSkill({ one: started })], llm })
    runtime.bus.on('agent:taskStarted', started)
    const running = runtime.processInput('tell me something about my blog, please')
    await until(() => create.mock.calls.length > 0, 'the classification request')
    expect(runtime.currentState).toBe('UNDERSTANDING')
    expect(runtime.abort()).toBe(true)
    expect(runtime.currentState).toBe('CANCELLED')
    expect(create.mock.calls[0]![1].signal.aborted).toBe(true)
    expect(await running).toBeNull()
    expect(started).not.toHaveBeenCalled()
    expect(state.status).toBe('CANCELLED')
  })

  it('a second request sent before the first got going is refused, not run twice', async () => {
    const ran: string[] = []
    const { runtime, state } = setUp({ skills: [scriptedSkill({ one: (context) => ran.push(context.inputs.text) })] })
    const first = runtime.processInput('/ask one')
    const second = runtime.processInput('/ask two')
    expect(await second).toBeNull()
    expect((await first)?.outcome).toBe('COMPLETED')
    expect(ran).toEqual(['/ask one'])
    expect(state.messages.some((message) => message.kind === 'assistant' && message.text.startsWith('A task is still running'))).toBe(true)
  })

  it('asks for a model instead of crashing when a model skill is resumed without one', async () => {
    const skill: Skill = { ...scriptedSkill({ one: () => undefined, two: (context) => context.model!.complete({ messages: [] }) }), needsModel: true }
    const { runtime, state } = setUp({ blog: { checkpoints: [checkpoint()] }, skills: [skill] })
    expect(await runtime.resumeTask('task-resume-1')).toBeNull()
    expect(state.messages.at(-1)).toMatchObject({ kind: 'setup' })
    expect(state.resumable.map((task) => task.taskId)).toEqual(['task-resume-1'])
  })

  it('treats a configured provider with no model named as unconfigured, saying what to set', async () => {
    const skill: Skill = { ...scriptedSkill({ one: () => undefined }), needsModel: true }
    const { runtime, state } = setUp({ blog: { status: { ...CONFIGURED, model: null } }, skills: [skill] })
    expect(await runtime.processInput('/ask x')).toBeNull()
    expect(runtime.modelStatus?.configured).toBe(false)
    expect(state.messages.at(-1)).toMatchObject({ kind: 'setup', text: expect.stringContaining('METABLOG_MODEL') })
  })

  it('asks for the model status again after it failed to load', async () => {
    const skill: Skill = { ...scriptedSkill({ one: () => undefined }), needsModel: true }
    const { runtime, api } = setUp({ blog: { status: CONFIGURED }, skills: [skill] })
    api.llmStatus.mockRejectedValueOnce(new Error('The dev server did not answer.'))
    await runtime.initialize()
    expect(runtime.modelStatus).toBeNull()
    expect((await runtime.processInput('/ask x'))?.outcome).toBe('COMPLETED')
    expect(api.llmStatus).toHaveBeenCalledTimes(2)
  })

  it('drops the checkpoint of a task that failed at its first step for a reason a resume cannot fix', async () => {
    const skill = scriptedSkill({
      one: async (context) => {
        await context.saveCheckpoint()
        throw new SkillError('ERR_NO_SELECTION', 'Select the text you want to change on the page, then ask again.')
      },
    })
    const { runtime, state, checkpoints } = setUp({ skills: [skill] })
    const record = await runtime.processInput('/ask x')
    expect(record?.outcome).toBe('ERROR')
    expect(checkpoints).toEqual([])
    expect(state.resumable).toEqual([])
    expect(state.messages.at(-1)).toMatchObject({ code: 'ERR_NO_SELECTION', message: 'Select the text you want to change on the page, then ask again.' })
  })

  it('keeps the checkpoint of a task that failed for a reason that may pass (a rate limit)', async () => {
    const skill = scriptedSkill({
      one: () => {
        throw new LlmError('ERR_LLM_RATE_LIMIT', 'Rate limit reached.', 429)
      },
    })
    const { runtime, state, checkpoints } = setUp({ skills: [skill] })
    const record = await runtime.processInput('/ask x')
    expect(checkpoints.map((saved) => saved.taskId)).toEqual([record!.taskId])
    expect(state.resumable.map((task) => task.taskId)).toEqual([record!.taskId])
    expect(state.messages.at(-1)).toMatchObject({ code: 'ERR_LLM_RATE_LIMIT', message: 'Rate limit reached. The task is saved: resume it to try again.' })
  })

  it('remembers the last HISTORY_LIMIT tasks only', async () => {
    const { runtime } = setUp({ skills: [scriptedSkill({ one: () => undefined })] })
    for (let index = 0; index < HISTORY_LIMIT + 3; index++) await runtime.processInput(`/ask ${index}`)
    expect(runtime.history).toHaveLength(HISTORY_LIMIT)
    expect(runtime.history.at(-1)?.title).toBe(`Answer: ${HISTORY_LIMIT + 2}`)
  })

  it.each([
    ['/write', 'What should the post be about? For example: /write a guide to ETags'],
    ['写一篇文章', 'What should the post be about? For example: /write a guide to ETags'],
    ['write a blog post', 'What should the post be about? For example: /write a guide to ETags'],
    ['/research', 'What should I look for in your posts? For example: /research caching'],
    ['/ask', 'What would you like to know? For example: /ask which posts mention ETags'],
  ])('asks what %j is about instead of running a skill on the bare command', async (text, question) => {
    const create = vi.fn()
    const ran = vi.fn()
    const skill: Skill = { ...scriptedSkill({ one: ran }), intents: ['write_article', 'research', 'answer_question'], needsModel: true }
    const llm = { chat: { completions: { create } } } as unknown as OpenAI
    const { runtime, state, api } = setUp({ blog: { status: CONFIGURED }, skills: [skill], llm })
    expect(await runtime.processInput(text)).toBeNull()
    expect(ran).not.toHaveBeenCalled()
    expect(create).not.toHaveBeenCalled()
    expect(api.saveCheckpoint).not.toHaveBeenCalled()
    expect(state.messages.at(-1)).toMatchObject({ kind: 'assistant', text: question })
    expect(runtime.currentState).toBe('IDLE')
  })

  it('names a mistyped command and suggests the closest one', async () => {
    const { runtime, state } = setUp()
    expect(await runtime.processInput('/delte posts/a.md')).toBeNull()
    expect(state.messages.at(-1)).toMatchObject({ kind: 'assistant', text: `\`/delte\` isn't a command. Did you mean \`/delete\`?\n\n${HELP}` })
    await runtime.processInput('/frobnicate now')
    expect(state.messages.at(-1)).toMatchObject({ text: `\`/frobnicate\` isn't a command.\n\n${HELP}` })
    await runtime.processInput('/help')
    expect(state.messages.at(-1)).toMatchObject({ text: HELP })
  })

  it('Stop while a resume is still being checked cancels it: nothing runs and the checkpoint stays', async () => {
    const ran = vi.fn()
    const saved = checkpoint({ expectedHashes: { 'posts/a.md': 'hash-a' } })
    const { runtime, api, state, checkpoints } = setUp({ blog: { checkpoints: [saved], hashes: { 'posts/a.md': 'hash-a' } }, skills: [scriptedSkill({ one: ran, two: ran })] })
    await runtime.initialize()
    const checking = deferred()
    api.readHash.mockImplementationOnce(async () => {
      await checking.promise
      return 'hash-a'
    })
    const resuming = runtime.resumeTask('task-resume-1', { confirmed: true })
    await until(() => api.readHash.mock.calls.length > 0, 'the resume check')
    // The store passes the id of the last task it saw, which is not the one being resumed.
    expect(runtime.abort('task-finished-earlier')).toBe(true)
    checking.resolve()
    expect(await resuming).toBeNull()
    expect(ran).not.toHaveBeenCalled()
    expect(checkpoints.map((kept) => kept.taskId)).toEqual(['task-resume-1'])
    expect(state.resumable.map((task) => task.taskId)).toEqual(['task-resume-1'])
    expect(state.messages.at(-1)).toMatchObject({ kind: 'assistant', text: STOPPED })
    expect(runtime.abort()).toBe(false)
  })
})

describe('AgentRuntime with a task in another tab', () => {
  afterEach(() => {
    vi.useRealTimers()
  })

  it('a running task keeps its checkpoint fresh, so another tab neither lists nor resumes it', async () => {
    vi.useFakeTimers()
    const gate = deferred()
    const skill = scriptedSkill({ one: () => undefined, two: () => undefined }, { two: gate })
    const server = createFakeApi()
    const first = setUp({ server, skills: [skill], tabId: 'tab-a' })
    const second = setUp({ server, skills: [skill], tabId: 'tab-b' })
    const running = first.runtime.processInput('/ask slowly')
    await vi.advanceTimersByTimeAsync(0)
    const [saved] = server.checkpoints
    expect(saved).toBeDefined()
    const savedAt = saved!.updatedAt
    await vi.advanceTimersByTimeAsync(HEARTBEAT_MS)
    expect(server.checkpoints[0]?.updatedAt).toBe(savedAt + HEARTBEAT_MS)

    // Long after its last finished step, the task (waiting on step two) is still alive.
    await vi.advanceTimersByTimeAsync(RUNNING_ELSEWHERE_MS * 2)
    await second.runtime.initialize()
    expect(second.state.resumable).toEqual([])
    await expect(second.runtime.resumeTask(saved!.taskId)).rejects.toThrow('is still running in another tab')

    gate.resolve()
    expect((await running)?.outcome).toBe('COMPLETED')
    // No heartbeat brings the checkpoint back after the task completed.
    await vi.advanceTimersByTimeAsync(HEARTBEAT_MS * 2)
    expect(server.checkpoints).toEqual([])
  })

  it('lists a task cut off by a closed tab once its checkpoint is too old to be alive', async () => {
    vi.useFakeTimers()
    const { runtime, state } = setUp({ blog: { checkpoints: [checkpoint({ updatedAt: Date.now() - 5_000 })] }, skills: [scriptedSkill({ one: () => undefined })] })
    await runtime.initialize()
    expect(state.resumable).toEqual([])
    await vi.advanceTimersByTimeAsync(RUNNING_ELSEWHERE_MS - 5_000 - 1)
    expect(state.resumable).toEqual([])
    await vi.advanceTimersByTimeAsync(1)
    expect(state.resumable.map((task) => task.taskId)).toEqual(['task-resume-1'])
  })

  it('lists at once a fresh task this tab ran before a reload', async () => {
    const { runtime, state } = setUp({
      blog: { checkpoints: [checkpoint({ updatedAt: Date.now() - 1_000, owner: 'tab-under-test' })] },
      skills: [scriptedSkill({ one: () => undefined })],
    })
    await runtime.initialize()
    expect(state.resumable.map((task) => task.taskId)).toEqual(['task-resume-1'])
  })

  it('lists a task this tab just stopped at once', async () => {
    const { runtime, state } = setUp({ skills: [scriptedSkill({ one: () => undefined, two: () => undefined }, { two: deferred() })] })
    const running = runtime.processInput('/ask something')
    await until(() => state.progress?.step === 'Step two', 'step two')
    runtime.abort()
    const record = await running
    expect(record?.outcome).toBe('CANCELLED')
    expect(state.resumable.map((task) => task.taskId)).toEqual([record!.taskId])
  })
})
