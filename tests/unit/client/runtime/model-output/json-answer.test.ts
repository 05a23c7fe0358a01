import { describe, expect, it } from 'vitest'
import { askJson, extractJson } from '../../../../../client/runtime/model-output/index.js'
import type { ModelPort, ModelRequest } from '../../../../../client/runtime/types.js'

const hasDescription = (value: unknown) => (typeof value === 'object' && value !== null && typeof (value as { description?: unknown }).description === 'string' ? (value as { description: string }) : null)

/** A scripted port that records the requests it got (the runtime's own ModelPort shape). */
function scriptedPort(answers: string[]): ModelPort & { requests: ModelRequest[] } {
  const requests: ModelRequest[] = []
  const complete = async (request: ModelRequest) => {
    requests.push(request)
    return answers.shift() ?? ''
  }
  return { model: 'scripted', requests, complete, turn: async (request) => ({ text: await complete(request), toolCalls: [], finishReason: 'stop', usage: null }) }
}

describe('extractJson', () => {
  it('reads JSON from a fence, from prose, after a think block and with a trailing comma', () => {
    expect(extractJson('```json\n{"description": "a"}\n```', hasDescription)).toEqual({ description: 'a' })
    expect(extractJson('Sure! Here it is: {"description": "b", "tags": ["x",]} Hope that helps.', hasDescription)).toEqual({ description: 'b', tags: ['x'] })
    expect(extractJson('<think>{"description": "no"}</think>{"description": "c"}', hasDescription)).toEqual({ description: 'c' })
    expect(extractJson('{"tags": ["a"]}', hasDescription)).toBeNull()
  })
})

describe('askJson', () => {
  it('asks once more with the bad answer, then falls back', async () => {
    const port = scriptedPort(['I think tags could be http.', 'Still prose.'])
    const answer = await askJson(port, { messages: [{ role: 'user', content: 'details' }] }, { check: hasDescription, shape: '{"description": "…"}', fallback: { description: 'fallback' } })
    expect(answer).toEqual({ value: { description: 'fallback' }, attempts: 0 })
    expect(port.requests).toHaveLength(2)
    expect(port.requests[1]!.messages.at(-2)).toEqual({ role: 'assistant', content: 'I think tags could be http.' })
  })

  it('takes the repaired answer', async () => {
    const port = scriptedPort(['nope', '{"description": "fixed"}'])
    const answer = await askJson(port, { messages: [{ role: 'user', content: 'details' }] }, { check: hasDescription, shape: '{}', fallback: { description: 'x' } })
    expect(answer).toEqual({ value: { description: 'fixed' }, attempts: 2 })
  })
})
