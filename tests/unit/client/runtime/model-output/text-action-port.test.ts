import { describe, expect, it } from 'vitest'
import { LlmError } from '../../../../../client/api/errors.js'
import { createToolSupport, withTextActions } from '../../../../../client/runtime/model-output/text-action-port.js'
import type { ModelPort, ModelRequest, ModelTurn } from '../../../../../client/runtime/types.js'

const TOOLS: ModelRequest['tools'] = [{ type: 'function', function: { name: 'read_page', description: 'Reads a page.', parameters: { type: 'object' } } }]
const REQUEST: ModelRequest = { messages: [{ role: 'system', content: 'Agent.' }, { role: 'user', content: 'Read a.md' }], tools: TOOLS }

/** A port that answers each call from the script (an Error is thrown), streaming text in two halves. */
function scripted(script: (string | Error)[]) {
  const requests: ModelRequest[] = []
  const port: ModelPort = {
    model: 'small-model',
    complete: async () => '',
    async turn(request, handlers = {}): Promise<ModelTurn> {
      requests.push(request)
      const next = script.shift()!
      if (next instanceof Error) throw next
      const half = Math.floor(next.length / 2)
      handlers.onText?.(next.slice(0, half), next.slice(0, half))
      handlers.onText?.(next.slice(half), next)
      return { text: next, toolCalls: [], finishReason: 'stop', usage: null }
    },
  }
  return { port, requests }
}

const ACTION = 'Reading.\n```action\n{"tool": "read_page", "arguments": {"path": "a.md"}}\n```'

describe('withTextActions', () => {
  it('asks the same turn again in text after a tools refusal, once telling why, and remembers it', async () => {
    const { port, requests } = scripted([new LlmError('ERR_LLM_NO_TOOLS', 'no tools'), ACTION, 'Done.'])
    const support = createToolSupport()
    const reasons: string[] = []
    const wrapped = withTextActions(port, support, (reason) => reasons.push(reason))
    const shown: string[] = []
    const turn = await wrapped.turn(REQUEST, { onText: (delta) => shown.push(delta) })
    expect(turn).toMatchObject({ text: 'Reading.', finishReason: 'tool_calls', toolCalls: [{ name: 'read_page', arguments: { path: 'a.md' } }] })
    expect(shown.join('')).toBe('Reading.\n')
    expect(requests[0]!.tools).toEqual(TOOLS)
    expect(requests[1]!.tools).toBeUndefined()
    expect(support.lacksTools('small-model')).toBe(true)
    await wrapped.turn(REQUEST)
    expect(requests[2]!.tools).toBeUndefined()
    expect(reasons).toEqual(['refused'])
  })

  it('goes straight to text when the model is known to take no tools, and passes other requests through', async () => {
    const { port, requests } = scripted(['Plain.', 'Summary.'])
    const support = { lacksTools: () => true, markNoTools: () => undefined }
    const reasons: string[] = []
    const wrapped = withTextActions(port, support, (reason) => reasons.push(reason))
    expect((await wrapped.turn(REQUEST)).toolCalls).toEqual([])
    expect(String(requests[0]!.messages[0]!.content)).toContain('```action')
    await wrapped.turn({ messages: [{ role: 'user', content: 'Summarise' }] })
    expect(requests[1]!.messages).toEqual([{ role: 'user', content: 'Summarise' }])
    expect(reasons).toEqual(['known'])
  })

  it('lets every other failure through', async () => {
    const { port } = scripted([new LlmError('ERR_LLM_AUTH', 'bad key')])
    await expect(withTextActions(port, createToolSupport(), () => undefined).turn(REQUEST)).rejects.toMatchObject({ code: 'ERR_LLM_AUTH' })
  })
})
