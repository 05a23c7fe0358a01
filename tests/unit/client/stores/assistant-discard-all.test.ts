// @vitest-environment happy-dom
// A task discarded from the resume banner never shows there again while the others are discarded.
import { watch } from 'vue'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { checkpoint, flush, setUpAssistant } from '../components/assistant-harness'

afterEach(() => vi.unstubAllGlobals())

describe('Discard all', () => {
  it('never shows a discarded task again', async () => {
    const blog = {
      checkpoints: [
        checkpoint({ taskId: 'task-a', title: 'A' }),
        checkpoint({ taskId: 'task-b', title: 'B' }),
        checkpoint({ taskId: 'task-c', title: 'C' }),
      ],
    }
    const { store, api, runtime } = await setUpAssistant({ blog })
    await runtime.refreshResumable()
    await new Promise((resolve) => setTimeout(resolve, 150))
    expect(store.resumable.map((task) => task.taskId)).toEqual(['task-a', 'task-b', 'task-c'])
    // A dev server a few tens of ms away.
    const remove = api.deleteCheckpoint.getMockImplementation()!
    api.deleteCheckpoint.mockImplementation(async (id: string) => {
      await new Promise((resolve) => setTimeout(resolve, 40))
      return remove(id)
    })
    const seen: string[][] = []
    watch(() => store.resumable, (tasks) => seen.push(tasks.map((task) => task.taskId)), { flush: 'sync' })
    await store.discardAll()
    await new Promise((resolve) => setTimeout(resolve, 150))
    await flush()
    // Once gone from the banner, a task stays gone.
    const gone = new Set<string>()
    const reappeared: string[] = []
    for (const list of seen) {
      for (const id of list) if (gone.has(id)) reappeared.push(id)
      for (const id of ['task-a', 'task-b', 'task-c']) if (!list.includes(id)) gone.add(id)
    }
    expect(reappeared).toEqual([])
    expect(store.resumable).toEqual([])
  })
})
