import { describe, expect, it } from 'vitest'
import { checkpointPage, collapseTasks } from '../../../../client/runtime/resumable-tasks'
import type { Checkpoint } from '../../../../plugin/protocol'

const checkpoint = (taskId: string, updatedAt: number, overrides: Partial<Checkpoint> = {}): Checkpoint => ({
  taskId,
  skill: 'edit',
  title: 'Edit the page',
  inputs: { text: 'shorter', intent: 'edit_selection', params: {}, currentFile: 'posts/a.md' },
  steps: [],
  expectedHashes: {},
  createdPaths: [],
  totalSteps: 3,
  updatedAt,
  ...overrides,
})

describe('collapseTasks', () => {
  it('keeps the newest run per skill and page, in the server\'s order, naming the page and the older runs', () => {
    const tasks = collapseTasks([
      checkpoint('first', 1),
      checkpoint('summary', 5, { skill: 'summarize' }),
      checkpoint('latest', 9),
      checkpoint('middle', 4),
      checkpoint('elsewhere', 2, { inputs: { text: 'x', intent: 'edit_selection', params: { path: 'notes/b.md' } } }),
    ])
    expect(tasks.map((task) => [task.taskId, task.path, task.superseded])).toEqual([
      ['summary', 'posts/a.md', undefined],
      ['latest', 'posts/a.md', ['middle', 'first']],
      ['elsewhere', 'notes/b.md', undefined],
    ])
  })

  it('tasks about no page collapse only when their titles match', () => {
    const noPage = { inputs: { text: 'x', intent: 'write_post', params: {} } }
    const tasks = collapseTasks([checkpoint('a', 1, { ...noPage, title: 'Write about A' }), checkpoint('b', 2, { ...noPage, title: 'Write about B' })])
    expect(tasks.map((task) => task.taskId)).toEqual(['a', 'b'])
    expect(tasks.every((task) => task.path === undefined)).toBe(true)
  })

  it('falls back to the first page the task read and did not create', () => {
    const read = checkpoint('r', 1, { inputs: { text: 'x', intent: 'agent', params: {} }, expectedHashes: { 'posts/new.md': 'h1', 'posts/old.md': 'h2' }, createdPaths: ['posts/new.md'] })
    expect(checkpointPage(read)).toBe('posts/old.md')
  })
})
