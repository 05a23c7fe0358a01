import OpenAI from 'openai'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { CostTracker } from '../../../../client/runtime/cost-tracker'
import { createLogger } from '../../../../client/runtime/logger'
import { createModelPort } from '../../../../client/runtime/model-port'
import type { ApprovalMode } from '../../../../client/runtime/approvals'
import { createAgentSkill } from '../../../../client/skills/agent'
import { builtinTools } from '../../../../client/tools'
import { startFakeLlm, type FakeLlm } from '../../../fixtures/fake-llm-server.js'
import { createBlog, runSkill } from '../skills/skill-harness'

let fake: FakeLlm

beforeAll(async () => {
  fake = await startFakeLlm()
})
afterEach(() => fake.reset())
afterAll(async () => {
  await fake.close()
})

const blog = () => createBlog({ 'posts/a.md': { content: '# A\n\nAlpha text.\n', title: 'A' } })
const readA = { toolCalls: [{ id: 'call_1', name: 'read_page', arguments: '{"path":"posts/a.md"}' }] }
const editA = { toolCalls: [{ id: 'call_2', name: 'edit_page', arguments: JSON.stringify({ path: 'posts/a.md', edits: [{ oldText: 'Alpha text.', newText: 'Beta text.' }] }) }] }

function run(options: { maxSteps?: number; mode?: ApprovalMode; text?: string; landed?: string[] } = {}) {
  const { api, content } = blog()
  const client = new OpenAI({ baseURL: fake.baseURL, apiKey: 'test', maxRetries: 0 })
  const model = createModelPort({ client, model: 'gpt-4o-mini', taskId: 't', signal: new AbortController().signal, costs: new CostTracker(), logger: createLogger({ sink: null }) })
  const skill = createAgentSkill({ tools: builtinTools, maxSteps: options.maxSteps })
  const running = runSkill(skill, { api, model, inputs: { text: options.text ?? 'change alpha to beta', mode: options.mode ?? 'ask', currentFile: 'posts/a.md' }, landed: options.landed })
  return { running, content }
}

const offered = (index: number) => (fake.chatRequests[index]!.body.tools ?? []).map((tool: { function: { name: string } }) => tool.function.name)

describe('the agent loop', () => {
  it('stops after maxSteps model turns with a clear note', async () => {
    fake.setDefault(readA)
    const { running } = run({ maxSteps: 3 })
    const result = await running
    expect(result.error).toBeUndefined()
    expect(fake.chatRequests).toHaveLength(3)
    expect(result.outputs.get('loop')).toMatchObject({ steps: 3, stopped: true })
    expect(result.said).toEqual(['Stopped after 3 steps without a final answer. Ask me to continue, or narrow the request.'])
  })

  it('defaults to 10 steps', async () => {
    fake.setDefault(readA)
    expect((await run().running).said[0]).toMatch(/^Stopped after 10 steps/)
    expect(fake.chatRequests).toHaveLength(10)
  })

  it('never offers a write tool to the model in plan mode, and refuses one it calls anyway', async () => {
    fake.enqueue(readA, editA, { text: ['1. Change “Alpha text.” to “Beta text.”'] })
    const { running, content } = run({ mode: 'plan' })
    const result = await running
    for (const index of [0, 1, 2]) expect(offered(index)).toEqual(['search_pages', 'list_pages', 'read_page', 'get_links'])
    const refusal = fake.chatRequests[2]!.body.messages.at(-1)
    expect(refusal).toMatchObject({ role: 'tool', tool_call_id: 'call_2' })
    expect(JSON.parse(refusal.content).error.code).toBe('ERR_TOOL_NOT_ALLOWED')
    expect(result.proposals).toEqual([])
    expect(content('posts/a.md')).toBe('# A\n\nAlpha text.\n')
    expect(fake.chatRequests[0]!.body.messages[0].content).toContain('PLAN MODE')
  })

  it('offers every tool in ask mode and applies an approved edit', async () => {
    fake.enqueue(readA, editA, { text: ['Done.'] })
    const { running, content } = run()
    const result = await running
    expect(offered(0)).toHaveLength(7)
    expect(result.proposals).toMatchObject([{ kind: 'edit', before: 'Alpha text.', after: 'Beta text.' }])
    expect(content('posts/a.md')).toBe('# A\n\nBeta text.\n')
    expect(result.outputs.get('loop')).toMatchObject({ text: 'Done.', steps: 3, stopped: false })
    // A call written in a moment shows no progress of its own: it would only flicker.
    expect(result.progress.filter((line) => line.startsWith('Writing the'))).toEqual([])
  })

  it('follows a tool call the model takes a while to write on the progress bar', async () => {
    // The call's arguments in 6 deltas, 100 ms apart: a page the model is writing, say.
    const slowEdit = { toolCalls: [{ ...editA.toolCalls[0]!, parts: 6 }], chunkDelayMs: 100 }
    fake.enqueue(slowEdit, { text: ['Done.'] })
    const result = await run().running
    const shown = result.progress.filter((line) => line.startsWith('Writing the edit_page call…'))
    expect(shown.length).toBeGreaterThanOrEqual(1)
    // At most one update per 200 ms, each with the characters written so far.
    expect(shown.length).toBeLessThanOrEqual(3)
    for (const line of shown) expect(Number(/… ([\d,]+) characters/.exec(line)![1]!.replace(/,/g, ''))).toBeLessThanOrEqual(editA.toolCalls[0]!.arguments.length)
  })

  it('does not apply an edit again whose write landed just before an interruption', async () => {
    fake.enqueue(editA, { text: ['Done.'] })
    const { running, content } = run({ landed: ['posts/a.md'] })
    const result = await running
    expect(result.proposals).toEqual([])
    expect(content('posts/a.md')).toBe('# A\n\nAlpha text.\n')
    expect(JSON.parse(fake.chatRequests[1]!.body.messages.at(-1).content)).toMatchObject({ status: 'applied', note: 'applied before an interruption' })
  })
})
