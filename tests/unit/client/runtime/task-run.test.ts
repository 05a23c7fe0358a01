import { describe, expect, it, vi } from 'vitest'
import { ApiError } from '../../../../client/api/errors'
import type { MetaBlogApi } from '../../../../client/api/metablog-api'
import { createEventBus, type MetaBlogEvents } from '../../../../client/event-bus'
import { createPlainChatState } from '../../../../client/runtime/chat-state'
import { CostTracker } from '../../../../client/runtime/cost-tracker'
import { hashText } from '../../../../client/runtime/hash'
import { createLogger } from '../../../../client/runtime/logger'
import { TaskRun } from '../../../../client/runtime/task-run'
import type { Skill, SkillContext, TaskInputs } from '../../../../client/runtime/types'
import type { Checkpoint } from '../../../../plugin/protocol'
import { checkpoint, deferred } from '../components/assistant-harness'

const inputs: TaskInputs = { text: '/ask x', intent: 'answer_question', params: {} }

function skillOf(run: (context: SkillContext) => unknown): Skill {
  return { name: 'scripted', intents: ['answer_question'], needsModel: false, title: () => 'Scripted', steps: [{ id: 'one', title: 'One', run: async (context) => run(context) }] }
}

function setUp(api: Partial<Record<keyof MetaBlogApi, unknown>>, skill: Skill, saved?: Checkpoint) {
  const state = createPlainChatState()
  const bus = createEventBus<MetaBlogEvents>()
  const written = vi.fn()
  bus.on('file:written', written)
  const fullApi = { saveCheckpoint: vi.fn(async () => ({ taskId: 't', updatedAt: 1 })), readHash: vi.fn(async () => null), lock: vi.fn(async () => ({})), ...api } as unknown as MetaBlogApi
  const host = {
    api: fullApi,
    llm: null,
    model: null,
    costs: new CostTracker(),
    logger: createLogger({ sink: null }),
    state,
    bus,
    touch: () => undefined,
    approve: async () => ({ action: 'accept' as const }),
    resolveConflict: async () => 'drop' as const,
  }
  return { run: new TaskRun(host, skill, inputs, saved), state, written }
}

describe('TaskRun', () => {
  it('counts a write whose answer was lost as written when the page already holds exactly that content', async () => {
    const content = '# Written before the answer was lost\n'
    const landed = await hashText(content)
    let seen: string | null = null
    const writeFile = vi.fn(async () => {
      throw new ApiError('ERR_STALE', 'posts/a.md changed.', 412, { currentHash: landed })
    })
    const { run } = setUp({ writeFile }, skillOf(async (context) => {
      expect(await context.writePage('posts/a.md', content, 'hash-before')).toBe(landed)
      seen = context.expectedHash('posts/a.md')
    }))
    await run.run()
    expect(seen).toBe(landed)
    expect(run.checkpoint().pendingHashes).toEqual({})
  })

  it('still reports a stale write when the page holds something else (the author’s edit)', async () => {
    const writeFile = vi.fn(async () => {
      throw new ApiError('ERR_STALE', 'posts/a.md changed.', 412, { currentHash: 'the-authors-version' })
    })
    const { run } = setUp({ writeFile }, skillOf((context) => context.writePage('posts/a.md', 'mine', 'hash-before')))
    await expect(run.run()).rejects.toMatchObject({ code: 'ERR_STALE' })
    expect(run.checkpoint().pendingHashes).toEqual({})
  })

  it('on resume, takes a write that landed before the interruption as its own version', async () => {
    const saved = checkpoint({ steps: [], expectedHashes: { 'posts/a.md': 'hash-before' }, pendingHashes: { 'posts/a.md': 'hash-sent' } })
    let seen: string | null = null
    const readHash = vi.fn(async () => 'hash-sent')
    const { run } = setUp({ readHash }, skillOf((context) => (seen = context.expectedHash('posts/a.md'))), saved)
    await run.run()
    expect(seen).toBe('hash-sent')
  })

  it('keeps only the latest snapshot waiting while a checkpoint save is slow', async () => {
    const gate = deferred()
    const sent: (string | undefined)[] = []
    const saveCheckpoint = vi.fn(async (data: Checkpoint) => {
      sent.push(data.partial?.text)
      await gate.promise
      return { taskId: data.taskId, updatedAt: 1 }
    })
    const { run } = setUp({ saveCheckpoint }, skillOf(async (context) => {
      context.streamed('first')
      const saves = [context.saveCheckpoint()]
      await vi.waitFor(() => expect(sent).toHaveLength(1))
      for (let index = 0; index < 20; index++) {
        context.streamed(`text ${index}`)
        saves.push(context.saveCheckpoint())
      }
      gate.resolve()
      await Promise.all(saves)
    }))
    await run.run()
    // The save in flight, one with the latest text (not twenty), and the one after the step finished.
    expect(sent).toEqual(['first', 'text 19', undefined])
  })

  it('tells the author once when checkpoints cannot be saved', async () => {
    const saveCheckpoint = vi.fn(async () => {
      throw new ApiError('ERR_TOO_LARGE', 'The request body is too large.', 413)
    })
    const { run, state } = setUp({ saveCheckpoint }, skillOf(async (context) => {
      await context.saveCheckpoint()
      await context.saveCheckpoint()
    }))
    await run.run()
    expect(saveCheckpoint).toHaveBeenCalledTimes(3)
    const notes = state.messages.filter((message) => message.kind === 'assistant' && message.text.includes('could not save'))
    expect(notes).toEqual([expect.objectContaining({ text: expect.stringContaining('The request body is too large.') })])
  })

  it('leaves file:written to the dev server’s event (one per write), and logs the write', async () => {
    const writeFile = vi.fn(async (path: string) => ({ path, hash: 'h1' }))
    const { run, written } = setUp({ writeFile }, skillOf((context) => context.writePage('posts/a.md', 'x', null)))
    await run.run()
    expect(written).not.toHaveBeenCalled()
  })

  it('sends what the content guard stores, judged against the page it updates, and notes that hash', async () => {
    const current = '# Mine <b>author</b>\n'
    const writeFile = vi.fn(async (path: string, content: string) => ({ path, hash: await hashText(content) }))
    const readFile = vi.fn(async (path: string) => ({ path, content: current, hash: 'h0' }))
    const { run } = setUp({ writeFile, readFile }, skillOf((context) => context.writePage('posts/a.md', `${current}\nNew {{ x }} <i>y</i>\n`, 'h0')))
    await run.run()
    const sent = '# Mine <b>author</b>\n\nNew &#123;&#123; x }} &lt;i>y&lt;/i>\n'
    expect(writeFile).toHaveBeenCalledWith('posts/a.md', sent, 'h0', expect.anything())
    expect(run.checkpoint().expectedHashes).toEqual({ 'posts/a.md': await hashText(sent) })
  })

  it('refuses before sending when the guard would refuse, with the construct and the line', async () => {
    const writeFile = vi.fn()
    const skill = skillOf((context) => context.writePage('posts/new.md', '# New\n\n```\n<!--@include: ../.env-->\n```\n', null))
    const { run } = setUp({ writeFile }, skill)
    await expect(run.run()).rejects.toMatchObject({ code: 'ERR_UNSAFE_CONTENT', message: expect.stringContaining('posts/new.md was not written. line 4: `<!--@include:`') })
    expect(writeFile).not.toHaveBeenCalled()
  })

  it('locks a page before writing or deleting it, once per page while the lock is fresh', async () => {
    const order: string[] = []
    const lock = vi.fn(async (path: string) => void order.push(`lock ${path}`))
    const writeFile = vi.fn(async (path: string) => {
      order.push(`write ${path}`)
      return { path, hash: `h${order.length}` }
    })
    const deleteFile = vi.fn(async (path: string) => void order.push(`delete ${path}`))
    const { run } = setUp({ lock, writeFile, deleteFile }, skillOf(async (context) => {
      await context.writePage('posts/a.md', 'one', null)
      await context.writePage('posts/a.md', 'two', context.expectedHash('posts/a.md'))
      await context.api.deleteFile('posts/b.md', 'hash-b')
    }))
    await run.run()
    expect(order).toEqual(['lock posts/a.md', 'write posts/a.md', 'write posts/a.md', 'lock posts/b.md', 'delete posts/b.md'])
  })
})
