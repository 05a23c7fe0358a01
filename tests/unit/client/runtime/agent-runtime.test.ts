import type OpenAI from 'openai'
import { describe, expect, it, vi } from 'vitest'
import { LlmError, SkillError } from '../../../../client/api/errors'
import type { MetaBlogApi } from '../../../../client/api/metablog-api'
import { AgentRuntime, HISTORY_LIMIT } from '../../../../client/runtime/agent-runtime'
import { createPlainChatState } from '../../../../client/runtime/chat-state'
import { createLogger } from '../../../../client/runtime/logger'
import type { Skill } from '../../../../client/runtime/types'
import { CONFIGURED, checkpoint, createFakeApi, deferred, scriptedSkill, until, type FakeBlog } from '../components/assistant-harness'

function setUp(options: { blog?: FakeBlog; skills?: Skill[]; llm?: OpenAI; watchdogMs?: number } = {}) {
  const { api, checkpoints } = createFakeApi(options.blog)
  const state = createPlainChatState()
  const runtime = new AgentRuntime({
    api: api as unknown as MetaBlogApi,
    llm: options.llm ?? null,
    skills: options.skills ?? [],
    state,
    logger: createLogger({ sink: null }),
    watchdogMs: options.watchdogMs,
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
    expect(error).toMatchObject({ code: 'ERR_WATCHDOG', message: 'The task stopped making progress for 1 second and was stopped; its finished steps are saved.' })
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
})
