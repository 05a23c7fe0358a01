import fs from 'node:fs/promises'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { builtinSkills } from '../../client/skills/index.js'
import { builtinTools } from '../../client/tools/index.js'
import { startFakeLlm, type FakeLlm } from '../fixtures/fake-llm-server.js'
import { copySite } from '../helpers/dev-server.js'
import { freePort, startDevServerProcess, type DevServerProcess } from '../helpers/dev-server-process.js'
import { createTestRuntime, fakeModelEnv, pendingCard, until } from '../helpers/runtime.js'

let fake: FakeLlm
let root: string
let server: DevServerProcess | undefined
const PAGE = 'posts/durability.md'
const SOURCE = '# Durable Writes\n\n## Why\n\nA crash must never leave half a file.\n\n## Rename\n\nWrite a temp file, then rename it.\n'
const SENTENCE = ' Call fsync first.'

beforeAll(async () => {
  fake = await startFakeLlm()
  root = await copySite()
  await fs.mkdir(path.join(root, 'posts'), { recursive: true })
  await fs.writeFile(path.join(root, PAGE), SOURCE)
})

afterAll(async () => {
  await server?.kill()
  await fake?.close()
  await fs.rm(root, { recursive: true, force: true })
})

/** Requests that carried no tool result yet: the first model turn of the request. */
const firstTurns = () => fake.chatRequests.filter((request) => !request.body.messages.some((message: { role: string }) => message.role === 'tool'))

describe('an agent turn interrupted by a dead dev server', () => {
  it('resumes after the edit was approved and written: no second write, no repeated model turn', async () => {
    const port = await freePort()
    const env = fakeModelEnv(fake)
    server = await startDevServerProcess({ root, port, env })
    fake.enqueue(
      { toolCalls: [{ id: 'call_read', name: 'read_page', arguments: JSON.stringify({ path: PAGE }) }] },
      { toolCalls: [{ id: 'call_edit', name: 'edit_page', arguments: JSON.stringify({ path: PAGE, edits: [{ oldText: 'then rename it.', newText: `then rename it.${SENTENCE}` }] }) }] },
      // The final answer is slow: the dev server dies while it is on its way.
      { text: ['Added.'], delayMs: 20_000 },
    )
    const first = createTestRuntime(server, { skills: builtinSkills, tools: builtinTools })
    const running = first.runtime.processInput('add a sentence about fsync to the second section', { currentFile: PAGE })
    const card = await until(() => pendingCard(first.state.messages, 'approval'), 30_000, 'the approval card')
    first.runtime.decide(card.id, { action: 'accept' })
    await until(() => fake.chatRequests.length === 3, 30_000, 'the request for the final answer')
    expect(await fs.readFile(path.join(root, PAGE), 'utf8')).toBe(SOURCE.replace('then rename it.', `then rename it.${SENTENCE}`))

    await server.kill()
    const interrupted = await running
    expect(interrupted?.outcome).toBe('ERROR')

    server = await startDevServerProcess({ root, port, env })
    fake.reset()
    fake.enqueue({ text: ['Added a sentence about fsync.'] })
    const second = createTestRuntime(server, { skills: builtinSkills, tools: builtinTools })
    await second.runtime.initialize()
    expect(second.state.resumable).toMatchObject([{ taskId: interrupted!.taskId, skill: 'agent' }])
    const preview = await second.runtime.previewResume(interrupted!.taskId)
    expect(preview).toMatchObject({ risk: 'low', reasons: [] })

    const resumed = await second.runtime.resumeTask(interrupted!.taskId)
    expect(resumed?.outcome).toBe('COMPLETED')
    // One request after the restart: the final answer. The first two turns came from the checkpoint.
    expect(fake.chatRequests).toHaveLength(1)
    expect(firstTurns()).toHaveLength(0)
    const tools = fake.chatRequests[0]!.body.messages.filter((message: { role: string }) => message.role === 'tool')
    expect(tools.map((message: { tool_call_id: string }) => message.tool_call_id)).toEqual(['call_read', 'call_edit'])
    expect(JSON.parse(tools[1].content)).toEqual({ status: 'applied', path: PAGE })
    // No second write: the page holds the sentence once, and the resumed run saved nothing.
    const page = await fs.readFile(path.join(root, PAGE), 'utf8')
    expect(page.split(SENTENCE)).toHaveLength(2)
    expect(second.runtime.logger.entries().filter((entry) => entry.event === 'agent.file.saved')).toEqual([])
    expect(second.state.messages.filter((message) => message.kind === 'approval')).toEqual([])
    expect(second.state.messages.findLast((message) => message.kind === 'assistant')).toMatchObject({ text: 'Added a sentence about fsync.' })
    expect(second.state.resumable).toEqual([])
  }, 120_000)
})
