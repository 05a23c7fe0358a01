// @vitest-environment happy-dom
// The runtime's changes reach the panel once a frame; the runtime, and the store's own changes, see the latest state.
import { createPinia, setActivePinia } from 'pinia'
import { afterEach, describe, expect, it, vi } from 'vitest'
import type { MetaBlogApi } from '../../../../client/api/metablog-api'
import { AgentRuntime } from '../../../../client/runtime/agent-runtime'
import { createLogger } from '../../../../client/runtime/logger'
import type { ChatMessage, ChatState } from '../../../../client/runtime/types'
import { useAssistantStore } from '../../../../client/stores/assistant'
import { HOLD_MAX_MS, createFrameBatch } from '../../../../client/stores/frame-batch'
import { createFakeApi } from '../components/assistant-harness'

const nextFrame = () => new Promise((resolve) => requestAnimationFrame(resolve))

afterEach(() => vi.unstubAllGlobals())

describe('createFrameBatch', () => {
  it('runs deferred changes in order with the next frame, and at once when flushed', async () => {
    const batch = createFrameBatch()
    const seen: string[] = []
    batch.defer(() => seen.push('a'))
    batch.defer(() => {
      seen.push('b')
      // Deferred while the batch runs: it runs in the same batch, after the others.
      batch.defer(() => seen.push('d'))
    })
    batch.defer(() => seen.push('c'))
    expect(seen).toEqual([])
    await nextFrame()
    expect(seen).toEqual(['a', 'b', 'c', 'd'])

    batch.defer(() => seen.push('e'))
    batch.flush()
    expect(seen.at(-1)).toBe('e')
    await nextFrame()
    expect(seen).toEqual(['a', 'b', 'c', 'd', 'e'])
  })

  it('keeps the changes for a later frame while held, and no longer than HOLD_MAX_MS', async () => {
    const batch = createFrameBatch()
    const seen: string[] = []
    const release = batch.hold()
    batch.defer(() => seen.push('a'))
    await nextFrame()
    await nextFrame()
    expect(seen).toEqual([])
    release()
    release()
    await nextFrame()
    await nextFrame()
    expect(seen).toEqual(['a'])

    // A hold that is never released still lets the panel move after a tenth of a second.
    batch.hold()
    batch.defer(() => seen.push('b'))
    await nextFrame()
    expect(seen).toEqual(['a'])
    await new Promise((resolve) => setTimeout(resolve, HOLD_MAX_MS + 20))
    await nextFrame()
    expect(seen).toEqual(['a', 'b'])
  })

  it('runs the changes after one that throws', async () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => {})
    const batch = createFrameBatch()
    const seen: string[] = []
    batch.defer(() => {
      throw new Error('broken')
    })
    batch.defer(() => seen.push('after'))
    batch.flush()
    expect(seen).toEqual(['after'])
    expect(error).toHaveBeenCalledWith('[metablog] a panel update failed', expect.any(Error))
  })

  it('still runs them where no frames are drawn', async () => {
    vi.stubGlobal('requestAnimationFrame', undefined)
    const batch = createFrameBatch()
    const seen: string[] = []
    batch.defer(() => seen.push('a'))
    expect(seen).toEqual([])
    await new Promise((resolve) => setTimeout(resolve, 5))
    expect(seen).toEqual(['a'])
  })
})

describe('the assistant store and the runtime', () => {
  function connected(): { store: ReturnType<typeof useAssistantStore>; state: ChatState } {
    setActivePinia(createPinia())
    const store = useAssistantStore()
    let state!: ChatState
    store.connect((given) => {
      state = given
      return new AgentRuntime({ api: createFakeApi().api as unknown as MetaBlogApi, skills: [], state: given, logger: createLogger({ sink: null }) })
    })
    return { store, state }
  }
  const reply = (id: string, text: string): ChatMessage => ({ id, kind: 'assistant', text, streaming: true })

  it('shows the runtime\'s changes with the next frame, all at once', async () => {
    const { store, state } = connected()
    state.pushMessage(reply('r1', 'Hel'))
    state.updateMessage('r1', { text: 'Hello' })
    state.setProgress({ taskId: 'task-1', title: 'Answer', step: 'agent', index: 0, total: 1, message: 'Reading' })
    expect(store.messages).toEqual([])
    expect(store.progress).toBeNull()
    await nextFrame()
    expect(store.messages).toEqual([reply('r1', 'Hello')])
    expect(store.progress).toMatchObject({ message: 'Reading' })
  })

  it('gives the runtime the latest conversation, and shows a task\'s end at once with what came before it', () => {
    const { store, state } = connected()
    state.pushMessage(reply('r1', 'First'))
    expect(state.messages.map((message) => message.id)).toEqual(['r1'])
    state.pushMessage(reply('r2', 'Second'))
    state.setStatus('COMPLETED', 'task-1')
    expect(store.status).toBe('COMPLETED')
    expect(store.messages.map((message) => message.id)).toEqual(['r1', 'r2'])
  })
})
