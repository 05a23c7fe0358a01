// A turn's run of read calls goes out at once (the model waits for the slowest, not the sum),
// while a write still waits for everything before it and runs alone; results go back in call order.
import type OpenAI from 'openai'
import { describe, expect, it } from 'vitest'
import type { MetaBlogApi } from '../../../../client/api/metablog-api'
import { AgentRuntime } from '../../../../client/runtime/agent-runtime'
import { createPlainChatState } from '../../../../client/runtime/chat-state'
import { hashText } from '../../../../client/runtime/hash'
import { createLogger } from '../../../../client/runtime/logger'
import { builtinTools } from '../../../../client/tools'
import type { ChatState } from '../../../../client/runtime/types'
import type { CheckpointPatch, CheckpointStep } from '../../../../plugin/protocol'
import { streamChunks, type FakeReply } from '../../../fixtures/fake-llm-server.js'
import { CONFIGURED } from '../components/assistant-harness'

const PAGE = 'posts/a.md'
const OTHER = 'posts/b.md'
const READ_MS = 20

const call = (id: string, name: string, args: object) => ({ id, name, arguments: JSON.stringify(args) })

function setUp(turns: FakeReply[], options: { holdSearch?: boolean; logHolds?: boolean } = {}) {
  const events: string[] = []
  const requests: { messages: { role: string; tool_call_id?: string; content: string }[] }[] = []
  const pages: Record<string, string> = { [PAGE]: '# A\n\nAlpha.\n', [OTHER]: '# B\n\nBravo.\n' }
  const saved: CheckpointStep[] = []
  const llm = {
    chat: {
      completions: {
        async create(body: (typeof requests)[number]) {
          requests.push(structuredClone(body))
          if (options.logHolds) events.push('model asked')
          const turn = turns[requests.length - 1]!
          return (async function* () {
            yield* streamChunks(turn, 'gpt-4o-mini', true)
          })()
        },
      },
    },
  } as unknown as OpenAI
  /** Logs when a read starts and ends; each takes READ_MS, a held search until Stop. */
  const reading = async <T>(name: string, signal: AbortSignal | undefined, hold: boolean, result: () => Promise<T>): Promise<T> => {
    events.push(`${name} started`)
    await new Promise((resolve, reject) => {
      const timer = hold ? undefined : setTimeout(resolve, READ_MS)
      signal?.addEventListener('abort', () => (clearTimeout(timer), reject(signal.reason)), { once: true })
    })
    events.push(`${name} ended`)
    return result()
  }
  const keep = (records: readonly CheckpointStep[] = []) => (saved.push(...records), Promise.resolve({ taskId: 't', updatedAt: Date.now() }))
  const api = {
    llmStatus: async () => CONFIGURED,
    listCheckpoints: async () => ({ checkpoints: [] }),
    saveCheckpoint: (checkpoint: { records?: CheckpointStep[] }) => keep(checkpoint.records),
    appendCheckpoint: (_taskId: string, patch: CheckpointPatch) => keep(patch.records),
    deleteCheckpoint: async () => ({ deleted: true }),
    releaseLocks: async () => ({ released: [] }),
    lock: async () => ({}),
    listPages: async () => ({ pages: Object.keys(pages).map((path) => ({ path, title: path, hash: 'h', tags: [], draft: false })) }),
    readFile: (path: string, { signal }: { signal?: AbortSignal } = {}) =>
      reading(`read ${path}`, signal, false, async () => ({ path, content: pages[path]!, hash: await hashText(pages[path]!) })),
    search: (query: string, { signal }: { signal?: AbortSignal } = {}) =>
      reading(`search ${query}`, signal, options.holdSearch === true, async () => ({ results: [{ path: OTHER, title: 'B', score: 1, snippet: 'Bravo.' }] })),
    writeFile: async (path: string, next: string) => {
      events.push(`write ${path}`)
      pages[path] = next
      return { path, hash: await hashText(next) }
    },
  } as unknown as MetaBlogApi
  const state: ChatState = createPlainChatState()
  if (options.logHolds) {
    state.hold = () => {
      events.push('panel held')
      return () => events.push('panel released')
    }
  }
  const runtime = new AgentRuntime({ api, llm, tools: builtinTools, state, logger: createLogger({ sink: null }), approvalMode: 'auto-edit' })
  return { runtime, events, requests, pages, saved }
}

describe('agent loop reads', () => {
  it('run side by side, a write waits for them and runs alone, and the model gets the results in call order', async () => {
    const { runtime, events, requests, pages } = setUp([
      {
        toolCalls: [
          call('c1', 'read_page', { path: PAGE }),
          call('c2', 'search_pages', { query: 'bravo' }),
          call('c3', 'edit_page', { path: PAGE, edits: [{ oldText: 'Alpha.', newText: 'Beta.' }] }),
          call('c4', 'read_page', { path: OTHER }),
        ],
      },
      { text: ['Done.'] },
    ])
    const record = await runtime.processInput('change alpha to beta', { currentFile: PAGE })
    expect(record?.outcome).toBe('COMPLETED')
    expect(pages[PAGE]).toBe('# A\n\nBeta.\n')
    // Both reads were under way before either ended…
    expect(events.slice(0, 2).sort()).toEqual([`read ${PAGE} started`, 'search bravo started'])
    // …the write came after both, and the read after the write started only once it was done.
    expect(events.slice(4)).toEqual([`write ${PAGE}`, `read ${OTHER} started`, `read ${OTHER} ended`])
    const results = requests[1]!.messages.filter((message) => message.role === 'tool')
    expect(results.map((message) => message.tool_call_id)).toEqual(['c1', 'c2', 'c3', 'c4'])
    expect(JSON.parse(results[0]!.content)).toMatchObject({ path: PAGE, content: '# A\n\nAlpha.\n' })
    expect(JSON.parse(results[1]!.content)).toEqual([{ path: OTHER, title: 'B', snippet: 'Bravo.' }])
    expect(JSON.parse(results[3]!.content)).toMatchObject({ path: OTHER, content: '# B\n\nBravo.\n' })
  })

  it('hold the panel still while they are out, and let it go before the next request; a write does not', async () => {
    const { runtime, events } = setUp(
      [
        { toolCalls: [call('c1', 'read_page', { path: PAGE }), call('c2', 'search_pages', { query: 'bravo' }), call('c3', 'edit_page', { path: PAGE, edits: [{ oldText: 'Alpha.', newText: 'Beta.' }] })] },
        { text: ['Done.'] },
      ],
      { logHolds: true },
    )
    expect((await runtime.processInput('change alpha to beta', { currentFile: PAGE }))?.outcome).toBe('COMPLETED')
    expect(events.filter((event) => !event.endsWith('started') && !event.endsWith('ended'))).toEqual([
      'model asked',
      'panel held',
      'panel released',
      `write ${PAGE}`,
      'model asked',
    ])
    // Both reads were answered inside the hold (they are sent just before it begins).
    const held = events.indexOf('panel held')
    const released = events.indexOf('panel released')
    expect(events.slice(held + 1, released).sort()).toEqual([`read ${PAGE} ended`, 'search bravo ended'])
  })

  it('keeps the reads that finished when Stop ends the others', async () => {
    const { runtime, events, saved } = setUp([{ toolCalls: [call('c1', 'read_page', { path: PAGE }), call('c2', 'search_pages', { query: 'bravo' })] }], { holdSearch: true })
    const running = runtime.processInput('read a and look for bravo', { currentFile: PAGE })
    while (!events.includes(`read ${PAGE} ended`)) await new Promise((resolve) => setTimeout(resolve, 5))
    await new Promise((resolve) => setTimeout(resolve, 5))
    expect(runtime.abort()).toBe(true)
    const record = await running
    expect(record?.outcome).toBe('CANCELLED')
    expect(events).not.toContain('search bravo ended')
    const ids = saved.map((step) => step.id)
    expect(ids).toContain('tool-0-0')
    expect(ids).not.toContain('tool-0-1')
  })
  it('send a read that repeats the previous same call as a note saying so, and a changed page whole', async () => {
    const { runtime, requests, pages } = setUp([
      { toolCalls: [call('c1', 'read_page', { path: PAGE }), call('c2', 'search_pages', { query: 'bravo' })] },
      { toolCalls: [call('c3', 'read_page', { path: PAGE }), call('c4', 'read_page', { path: OTHER })] },
      { toolCalls: [call('c5', 'edit_page', { path: PAGE, edits: [{ oldText: 'Alpha.', newText: 'Beta.' }] })] },
      { toolCalls: [call('c6', 'read_page', { path: PAGE })] },
      { text: ['Done.'] },
    ])
    const long = ' A sentence long enough to be worth sending once.'.repeat(8)
    pages[PAGE] = `# A\n\nAlpha.${long}\n`
    pages[OTHER] = `# B\n\nBravo.${long}\n`
    const first = pages[PAGE]
    expect((await runtime.processInput('read a twice, then change it', { currentFile: PAGE }))?.outcome).toBe('COMPLETED')
    const results = new Map(requests.at(-1)!.messages.filter((message) => message.role === 'tool').map((message) => [message.tool_call_id, JSON.parse(message.content)]))
    expect(results.get('c1')).toMatchObject({ path: PAGE, content: first })
    // The same page, unchanged: a note naming the call by its tool and arguments; the request still holds the first read.
    expect(results.get('c3')).toEqual({ unchanged: true, tool: 'read_page', arguments: { path: PAGE }, note: expect.stringContaining('previous read_page call') })
    // Another page's result is its own, and a short result (the search) is sent as it is.
    expect(results.get('c4')).toMatchObject({ path: OTHER, content: pages[OTHER] })
    expect(results.get('c2')).toEqual([{ path: OTHER, title: 'B', snippet: 'Bravo.' }])
    // After the edit the page reads differently, so it goes whole again.
    expect(results.get('c6')).toMatchObject({ path: PAGE, content: pages[PAGE] })
    expect(pages[PAGE]).toContain('Beta.')
    // Every later request still carries the read the note refers to, whole.
    for (const request of requests.slice(2)) {
      expect(JSON.parse(request.messages.find((message) => message.tool_call_id === 'c1')!.content)).toMatchObject({ content: first })
    }
  })
  it('name a repeated read by its tool and arguments, so a provider that reuses call ids does not confuse it', async () => {
    // Some servers number calls per turn (`call_0` every time); the text protocol shows no id at all.
    const { runtime, requests, pages } = setUp([
      { toolCalls: [call('call_0', 'read_page', { path: PAGE })] },
      { toolCalls: [call('call_0', 'read_page', { path: OTHER })] },
      { toolCalls: [call('call_0', 'read_page', { path: PAGE })] },
      { text: ['Done.'] },
    ])
    const long = ' A sentence long enough to be worth sending once.'.repeat(8)
    pages[PAGE] = `# A\n\nAlpha.${long}\n`
    pages[OTHER] = `# B\n\nBravo.${long}\n`
    expect((await runtime.processInput('read a, b, then a again', { currentFile: PAGE }))?.outcome).toBe('COMPLETED')
    const results = requests.at(-1)!.messages.filter((message) => message.role === 'tool').map((message) => JSON.parse(message.content))
    expect(results[0]).toMatchObject({ path: PAGE, content: pages[PAGE] })
    expect(results[1]).toMatchObject({ path: OTHER, content: pages[OTHER] })
    expect(results[2]).toMatchObject({ unchanged: true, tool: 'read_page', arguments: { path: PAGE } })
    expect(JSON.stringify(results[2])).not.toContain('call_0')
  })
})
