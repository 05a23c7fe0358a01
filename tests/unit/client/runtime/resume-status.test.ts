import { describe, expect, it } from 'vitest'
import type { MetaBlogApi } from '../../../../client/api/metablog-api'
import { AgentRuntime } from '../../../../client/runtime/agent-runtime'
import { createPlainChatState } from '../../../../client/runtime/chat-state'
import { createLogger } from '../../../../client/runtime/logger'
import type { Checkpoint } from '../../../../plugin/protocol'
import { checkpoint, createFakeApi, scriptedSkill } from '../components/assistant-harness'

function setUp(saved: Checkpoint, version?: number) {
  const { api } = createFakeApi({ checkpoints: [saved], hashes: { 'posts/etags.md': 'hash-now' } })
  const ran: string[] = []
  const skill = { ...scriptedSkill({ one: () => ran.push('one'), two: () => ran.push('two') }), version }
  const state = createPlainChatState()
  const runtime = new AgentRuntime({ api: api as unknown as MetaBlogApi, skills: [skill], state, logger: createLogger({ sink: null }), tabId: 'tab' })
  return { runtime, state, ran, api }
}

describe('runtime.resume, the one resume path', () => {
  it('starts a safe task at its first unfinished step, previewing it once', async () => {
    const { runtime, state, ran, api } = setUp(checkpoint({ expectedHashes: { 'posts/etags.md': 'hash-now' } }))
    const outcome = await runtime.resume('task-resume-1')
    expect(outcome).toMatchObject({ status: 'started', preview: { risk: 'low', pendingSteps: ['Step two'] } })
    expect(api.readHash).toHaveBeenCalledTimes(1)
    expect((await (outcome as Extract<typeof outcome, { status: 'started' }>).done).outcome).toBe('COMPLETED')
    expect(ran).toEqual(['two'])
    expect(state.messages[0]).toMatchObject({ text: 'Resuming **Write a post about ETags** at “Step two”.' })
  })

  it('waits for confirmation when a page changed, then runs when confirmed', async () => {
    const { runtime, ran } = setUp(checkpoint({ expectedHashes: { 'posts/etags.md': 'hash-then' } }))
    expect(await runtime.resume('task-resume-1')).toMatchObject({ status: 'needs-confirmation', preview: { risk: 'high' } })
    expect(ran).toEqual([])
    const confirmed = await runtime.resume('task-resume-1', { confirmed: true })
    expect(confirmed.status).toBe('started')
  })

  it('refuses a checkpoint saved by another version of the skill, or with inputs it cannot read', async () => {
    const other = setUp(checkpoint(), 2)
    expect(await other.runtime.resume('task-resume-1')).toMatchObject({ status: 'refused', message: expect.stringContaining('another version of the scripted skill') })
    expect(other.ran).toEqual([])
    const broken = setUp(checkpoint({ inputs: { text: 42, intent: 'answer_question', params: {} } }))
    expect(await broken.runtime.resume('task-resume-1')).toMatchObject({ status: 'refused', message: expect.stringContaining('cannot read') })
    const foreign = setUp(checkpoint({ inputs: { text: 'x', intent: 'write_article', params: {} } }))
    expect(await foreign.runtime.resume('task-resume-1')).toMatchObject({ status: 'refused' })
  })

  it('refuses an unknown task and a second resume while one is being checked', async () => {
    const { runtime } = setUp(checkpoint())
    expect(await runtime.resume('task-nope')).toMatchObject({ status: 'refused', message: expect.stringContaining('no resumable task') })
    const first = runtime.resume('task-resume-1')
    expect(await runtime.resume('task-resume-1')).toMatchObject({ status: 'refused', message: expect.stringContaining('still running') })
    await (await first as { done: Promise<unknown> }).done
  })
})
