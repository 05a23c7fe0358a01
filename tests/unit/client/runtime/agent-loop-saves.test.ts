// When the agent loop's checkpoint saves may overlap its work: a turn's save runs during the next
// model request (the author waits for the model, not the disk), but is persisted before that
// request's answer is acted on and before any write starts.
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

function setUp() {
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
            yield* streamChunks(turns[index]!, 'gpt-4o-mini', true)
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

/** The first save that carries `id`, and when it was held by the server. */
function heldAt(events: string[], id: string): number {
  return events.findIndex((event) => event.endsWith('held') && new RegExp(`[\\[,]${id}[,\\]]`).test(event))
}

describe('agent loop checkpoint saves', () => {
  it('overlap the next model request, but are held before its answer is acted on and before a write', async () => {
    const { runtime, events, content } = setUp()
    const record = await runtime.processInput('change alpha to beta', { currentFile: PAGE })
    expect(record?.outcome).toBe('COMPLETED')
    expect(content()).toBe('# A\n\nBeta.\n')
    const at = (event: string) => events.indexOf(event)
    // The reads' results are still being saved while the second turn is asked for…
    expect(at('model 1 asked')).toBeLessThan(heldAt(events, 'tool-0-0'))
    // One save carries the turn's two reads…
    expect(events).toContain('save [tool-0-0,tool-0-1] sent')
    // …and it is held before the second turn is recorded, and both before the edit is written.
    const turnSaved = events.findIndex((event) => event.includes('turn-1') && event.endsWith('sent'))
    expect(heldAt(events, 'tool-0-0')).toBeLessThan(turnSaved)
    expect(heldAt(events, 'turn-1')).toBeLessThan(at('write'))
    // The edit's result is held before the last turn is asked for.
    expect(heldAt(events, 'tool-1-0')).toBeLessThan(at('model 2 asked'))
  })
})
