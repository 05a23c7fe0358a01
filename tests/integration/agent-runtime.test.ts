import fs from 'node:fs/promises'
import path from 'node:path'
import matter from 'gray-matter'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { editSkill } from '../../client/skills/edit.js'
import { writeSkill } from '../../client/skills/write.js'
import { startFakeLlm, type FakeLlm } from '../fixtures/fake-llm-server.js'
import { startDevServer, type DevServer } from '../helpers/dev-server.js'
import { DETAILS, OUTLINE, content, createTestRuntime, fakeModelEnv, pendingCard, requestsContaining, sentences, until } from '../helpers/runtime.js'

let fake: FakeLlm
let dev: DevServer
const skills = [writeSkill, editSkill]

beforeAll(async () => {
  fake = await startFakeLlm()
  dev = await startDevServer({ env: fakeModelEnv(fake) })
})

afterEach(() => fake.reset())

afterAll(async () => {
  await dev?.close()
  await fake?.close()
})

const read = (page: string) => fs.readFile(path.join(dev.root, page), 'utf8')

describe('the write skill, end to end', () => {
  it('writes a post with front matter and links, recording tokens and cost', async () => {
    fake.enqueue(OUTLINE, content(['# Understanding ETags\n\n', 'An ETag is ', 'a fingerprint of a version.\n\n', '## Conditional requests\n\nSend If-Match.\n']), DETAILS)
    const { runtime, state } = createTestRuntime(dev, { skills })
    const announced: string[] = []
    runtime.bus.on('file:written', ({ path }) => announced.push(path))
    // "install" is in the fixture's Getting Started page, so the post links to it as related.
    const record = await runtime.processInput('write a post about install')
    expect(record?.outcome).toBe('COMPLETED')
    const saves = runtime.logger.entries().filter((entry) => entry.event === 'agent.file.saved')
    expect(saves[0]).toMatchObject({ path: 'posts/understanding-etags.md', created: true })
    expect(saves.at(-1)).toMatchObject({ path: 'posts/understanding-etags.md', created: false })
    // file:written comes from the dev server's event (bridged in the page), once per write: the task does not announce it again.
    expect(announced).toEqual([])
    const logged = new Set(runtime.logger.entries().map((entry) => entry.event))
    for (const event of ['agent.input.received', 'agent.intent.parsed', 'agent.state.changed', 'agent.skill.started', 'agent.llm.called', 'agent.file.saved', 'agent.task.completed']) {
      expect(logged, event).toContain(event)
    }

    const page = matter(await read('posts/understanding-etags.md'))
    expect(page.data).toMatchObject({ title: 'Understanding ETags', tags: ['http', 'caching'], description: 'How ETags keep concurrent writes safe.' })
    expect(page.data.date).toBeInstanceOf(Date)
    expect(page.data.draft).toBeUndefined()
    expect(page.content).toContain('An ETag is a fingerprint of a version.')
    expect(page.content).toContain('[[guide/getting-started|Getting Started]]')
    const { json: graph } = await dev.api('/graph')
    expect(graph.edges).toContainEqual(expect.objectContaining({ source: 'posts/understanding-etags.md', target: 'guide/getting-started.md' }))

    const cost = runtime.costs.task(record!.taskId)
    expect(cost.calls).toBe(3)
    expect(cost.promptTokens).toBe(620)
    expect(cost.cost).toBeGreaterThan(0)
    expect(cost.unknownCost).toBe(false)
    expect(state.sessionCost?.cost).toBe(cost.cost)
    expect((await dev.api('/checkpoints')).json.checkpoints).toEqual([])
    expect(state.messages.some((message) => message.kind === 'assistant' && message.text.includes('/posts/understanding-etags'))).toBe(true)
  })
})

describe('stop', () => {
  it('cancels a draft mid-content within 200 ms, leaves the page whole and the task resumable', async () => {
    fake.enqueue(OUTLINE, content(['# Understanding ETags\n\n', ...sentences(300)], 20), DETAILS)
    const { runtime } = createTestRuntime(dev, { skills })
    const running = runtime.processInput('write a post about ETags again')
    const draftPath = await until(async () => {
      const { json } = await dev.api('/checkpoints')
      return json.checkpoints[0]?.createdPaths?.[0] as string | undefined
    }, 10_000, 'the draft page')
    // The checkpoint names the page just before the page is created: it may not be there yet.
    await until(async () => (await read(draftPath).catch(() => '')).includes('Sentence 5.'), 10_000, 'streamed text on disk')

    const contentRequest = fake.chatRequests.at(-1)!
    const stoppedAt = performance.now()
    expect(runtime.abort()).toBe(true)
    expect(runtime.currentState).toBe('CANCELLED')
    await fake.waitForClose(contentRequest, 1000)
    expect(contentRequest.closedAt! - stoppedAt).toBeLessThan(200)
    expect(contentRequest.completed).toBe(false)

    const record = await running
    expect(record?.outcome).toBe('CANCELLED')
    expect(runtime.logger.entries().some((entry) => entry.event === 'agent.task.cancelled')).toBe(true)
    const page = matter(await read(draftPath))
    expect(page.data).toMatchObject({ title: 'Understanding ETags', draft: true })
    expect(page.content).toMatch(/^\s*# Understanding ETags\n\n(Sentence \d+\. )+\n$/)

    const { json } = await dev.api('/checkpoints')
    const checkpoint = json.checkpoints.find((item: { taskId: string }) => item.taskId === record!.taskId)
    expect(checkpoint.steps.map((step: { id: string }) => step.id)).toEqual(['related', 'outline', 'links', 'draft'])
    expect(checkpoint.partial.text).toContain('Sentence 0.')
    const relock = await dev.api('/locks', { method: 'POST', json: { path: draftPath, taskId: 'someone-else' } })
    expect(relock.status).toBe(200)
    await dev.api('/locks?taskId=someone-else', { method: 'DELETE' })
    await runtime.abandonTask(record!.taskId)
  })
})

describe('an author editing the draft while the post is being finished', () => {
  it('gets a conflict card instead of losing the edit; Drop keeps their version', async () => {
    fake.enqueue(OUTLINE, content(['# Understanding ETags\n\n', 'An ETag is a fingerprint.\n']), { ...DETAILS, delayMs: 1500 })
    const { runtime, state } = createTestRuntime(dev, { skills })
    const running = runtime.processInput('write a post about ETags for the conflict test')
    await until(() => requestsContaining(fake, 'Give front matter').length > 0, 10_000, 'the details call')
    const draft = state.messages.find((message) => message.kind === 'assistant' && message.text.startsWith('Drafting'))
    const draftPath = /`(posts\/[^`]+)`/.exec(draft?.kind === 'assistant' ? draft.text : '')![1]!
    const authorsVersion = `${await read(draftPath)}\nA paragraph the author wrote meanwhile.\n`
    await fs.writeFile(path.join(dev.root, draftPath), authorsVersion)

    const conflict = await until(() => pendingCard(state.messages, 'conflict'), 10_000, 'the conflict card')
    expect(conflict.kind === 'conflict' && conflict.summary).toMatch(/You changed .* while I was finishing the post/)
    runtime.decide(conflict.id, 'drop')
    expect((await running)?.outcome).toBe('COMPLETED')
    expect(await read(draftPath)).toBe(authorsVersion)
    await fs.rm(path.join(dev.root, draftPath))
  })
})

describe('the edit skill', () => {
  const page = 'guide/getting-started.md'
  const selection = 'Run npm install. Then read the Fixture Home.'

  async function editUntilConflict(decision: 'drop' | 'reapply') {
    const original = await read(page)
    fake.enqueue({ text: ['Run `npm install`, then see the [[Fixture Home]].'] })
    const { runtime, state } = createTestRuntime(dev, { skills })
    const running = runtime.processInput('make this more concise', { currentFile: page, selectedText: selection })
    const approval = await until(() => pendingCard(state.messages, 'approval'), 10_000, 'the approval card')
    expect(approval.kind === 'approval' && approval.proposal.before).toBe('Run `npm install`. Then read the [[Fixture Home]].')
    expect(runtime.currentState).toBe('WAITING_INPUT')

    const authorsVersion = `${original}\nA line the author added meanwhile.\n`
    await fs.writeFile(path.join(dev.root, page), authorsVersion)
    runtime.decide(approval.id, { action: 'accept' })
    const conflict = await until(() => pendingCard(state.messages, 'conflict'), 10_000, 'the conflict card')
    expect(await read(page)).toBe(authorsVersion)
    runtime.decide(conflict.id, decision)
    const record = await running
    expect(record?.outcome).toBe('COMPLETED')
    return { original, authorsVersion }
  }

  it('never overwrites the author’s concurrent edit: drop keeps their text', async () => {
    const { authorsVersion } = await editUntilConflict('drop')
    expect(await read(page)).toBe(authorsVersion)
  })

  it('re-applies the edit on the fresh text when the author chooses to', async () => {
    const { authorsVersion } = await editUntilConflict('reapply')
    const now = await read(page)
    expect(now).toContain('Run `npm install`, then see the [[Fixture Home]].')
    expect(now).toContain('A line the author added meanwhile.')
    expect(now).not.toContain('Then read the [[Fixture Home]]')
    expect(now.length).toBeLessThan(authorsVersion.length)
  })

  it('leaves the page untouched on reject', async () => {
    const before = await read(page)
    fake.enqueue({ text: ['Something else entirely.'] })
    const { runtime, state } = createTestRuntime(dev, { skills })
    const running = runtime.processInput('rewrite this', { currentFile: page, selectedText: 'Install' })
    const approval = await until(() => pendingCard(state.messages, 'approval'), 10_000, 'the approval card')
    runtime.decide(approval.id, { action: 'reject' })
    expect((await running)?.outcome).toBe('COMPLETED')
    expect(await read(page)).toBe(before)
  })
})

describe('a model that keeps answering 429', () => {
  it('fails with a clear rate-limit error and keeps the task resumable', async () => {
    fake.setDefault({ status: 429, retryAfter: 0, errorMessage: 'Rate limit reached for requests' })
    const { runtime, state } = createTestRuntime(dev, { skills })
    const record = await runtime.processInput('write a post about rate limits')
    expect(record?.outcome).toBe('ERROR')
    const error = state.messages.find((message) => message.kind === 'error')
    expect(error).toMatchObject({ code: 'ERR_LLM_RATE_LIMIT' })
    expect(runtime.logger.entries().find((entry) => entry.event === 'agent.error')).toMatchObject({ code: 'ERR_LLM_RATE_LIMIT' })
    expect(error?.kind === 'error' && error.message).toMatch(/rate limit/i)
    expect(requestsContaining(fake, 'Write an outline').length).toBeLessThanOrEqual(3)
    const { json } = await dev.api('/checkpoints')
    expect(json.checkpoints.map((item: { taskId: string }) => item.taskId)).toContain(record!.taskId)
    expect(state.resumable.map((task) => task.taskId)).toContain(record!.taskId)
    await runtime.abandonTask(record!.taskId)
  })
})
