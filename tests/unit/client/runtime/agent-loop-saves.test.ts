// When the agent loop's checkpoint saves may overlap its work: a turn's save runs during the next
// model request and the reads after it (the author waits for the model, not the disk), but is
// persisted before any write starts, and never carries a turn without the results it was asked with.
import type OpenAI from 'openai'
import { describe, expect, it } from 'vitest'
import type { MetaBlogApi } from '../../../../client/api/metablog-api'
import { AgentRuntime } from '../../../../client/runtime/agent-runtime'
import { createPlainChatState } from '../../../../client/runtime/chat-state'
import { hashText } from '../../../../client/runtime/hash'
import { createLogger } from '../../../../client/runtime/logger'
import { builtinTools } from '../../../../client/tools'
import type { CheckpointPatch, CheckpointStep } from '../../../../plugin/protocol'
import { streamChunks, type FakeReply } from '../../../fixtures/fake-llm-server.js'
import { CONFIGURED } from '../components/assistant-harness'

const PAGE = 'posts/a.md'
const SAVE_MS = 30

const turns: FakeReply[] = [
  {
    toolCalls: [
      { id: 'call_1', name: 'read_page', arguments: JSON.stringify({ path: PAGE }) },
      { id: 'call_s', name: 'search_pages', arguments: JSON.stringify({ query: 'alpha' }) },
    ],
  },
  { toolCalls: [{ id: 'call_2', name: 'edit_page', arguments: JSON.stringify({ path: PAGE, edits: [{ oldText: 'Alpha.', newText: 'Beta.' }] }) }] },
  { text: ['Done.'] },
]

function setUp(script: FakeReply[] = turns) {
  const events: string[] = []
  let content = '# A\n\nAlpha.\n'
  let requests = 0
  const llm = {
    chat: {
      completions: {
        async create() {
          const index = requests++
          events.push(`model ${index} asked`)
          await new Promise((resolve) => setTimeout(resolve, 5))
          events.push(`model ${index} answered`)
          return (async function* () {
            yield* streamChunks(script[index]!, 'gpt-4o-mini', true)
          })()
        },
      },
    },
  } as unknown as OpenAI
  /** Each save takes SAVE_MS and is logged with the records it carries. */
  const slowSave = async (records: readonly CheckpointStep[]) => {
    const ids = records.map((record) => record.id).join(',')
    events.push(`save [${ids}] sent`)
    await new Promise((resolve) => setTimeout(resolve, SAVE_MS))
    events.push(`save [${ids}] held`)
    return { taskId: 't', updatedAt: Date.now() }
  }
  const api = {
    llmStatus: async () => CONFIGURED,
    listCheckpoints: async () => ({ checkpoints: [] }),
    saveCheckpoint: (checkpoint: { records?: CheckpointStep[] }) => slowSave(checkpoint.records ?? []),
    appendCheckpoint: (_taskId: string, patch: CheckpointPatch) => slowSave(patch.records),
    deleteCheckpoint: async () => ({ deleted: true }),
    releaseLocks: async () => ({ released: [] }),
    lock: async () => ({}),
    listPages: async () => ({ pages: [{ path: PAGE, title: 'A', hash: 'h', tags: [], draft: false }] }),
    readFile: async (path: string) => {
      events.push('read')
      return { path, content, hash: await hashText(content) }
    },
    readHash: async () => hashText(content),
    search: async () => ({ results: [{ path: PAGE, title: 'A', score: 1, snippet: 'Alpha.' }] }),
    writeFile: async (_path: string, next: string) => {
      events.push('write')
      content = next
      return { path: PAGE, hash: await hashText(next) }
    },
  } as unknown as MetaBlogApi
  const runtime = new AgentRuntime({ api, llm, tools: builtinTools, state: createPlainChatState(), logger: createLogger({ sink: null }), approvalMode: 'auto-edit' })
  return { runtime, events, content: () => content }
}

/** When the first save that carries `id` was sent, or held by the server. */
function savedAt(events: string[], id: string, what: 'sent' | 'held'): number {
  return events.findIndex((event) => event.endsWith(what) && new RegExp(`[\\[,]${id}[,\\]]`).test(event))
}
const sentAt = (events: string[], id: string) => savedAt(events, id, 'sent')
const heldAt = (events: string[], id: string) => savedAt(events, id, 'held')

describe('agent loop checkpoint saves', () => {
  it('overlap the next model request and its reads, keep their order, and are held before a write', async () => {
    const { runtime, events, content } = setUp()
    const record = await runtime.processInput('change alpha to beta', { currentFile: PAGE })
    expect(record?.outcome).toBe('COMPLETED')
    expect(content()).toBe('# A\n\nBeta.\n')
    const at = (event: string) => events.indexOf(event)
    // The first answer's reads go out while the save before them is still on its way…
    expect(at('read')).toBeLessThan(heldAt(events, 'shape'))
    // …and their results are still being saved while the second turn is asked for.
    expect(at('model 1 asked')).toBeLessThan(heldAt(events, 'tool-0-0'))
    // Saves go one at a time with every record so far: no save carries a turn before the results it was asked with.
    expect(sentAt(events, 'tool-0-0')).toBeLessThanOrEqual(sentAt(events, 'turn-1'))
    expect(sentAt(events, 'tool-0-1')).toBeLessThanOrEqual(sentAt(events, 'turn-1'))
    // Everything before the edit is held before it is written.
    expect(heldAt(events, 'turn-1')).toBeLessThan(at('write'))
    // The edit's result is held before the last turn is asked for.
    expect(heldAt(events, 'tool-1-0')).toBeLessThan(at('model 2 asked'))
  })
  it('let the loop run at most one turn ahead of what is saved', async () => {
    const read = (id: string): FakeReply => ({ toolCalls: [{ id, name: 'read_page', arguments: JSON.stringify({ path: PAGE }) }] })
    const { runtime, events } = setUp([read('r0'), read('r1'), read('r2'), read('r3'), { text: ['Done.'] }])
    expect((await runtime.processInput('read a four times', { currentFile: PAGE }))?.outcome).toBe('COMPLETED')
    const reads = events.flatMap((event, index) => (event === 'read' ? [index] : []))
    expect(reads).toHaveLength(4)
    // Each turn's read goes out only once the save that carried the turn before it is held…
    for (let turn = 1; turn < 4; turn++) expect(reads[turn]).toBeGreaterThan(heldAt(events, `turn-${turn - 1}`))
    // …not once its own save, or the save of the reads the turn was asked with, is held.
    expect(reads.some((at, turn) => turn > 0 && at < heldAt(events, `tool-${turn - 1}-0`))).toBe(true)
  })
})
