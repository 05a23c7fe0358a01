import fs from 'node:fs/promises'
import path from 'node:path'
import matter from 'gray-matter'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { editSkill } from '../../client/skills/edit.js'
import { writeSkill } from '../../client/skills/write.js'
import { startFakeLlm, type FakeLlm } from '../fixtures/fake-llm-server.js'
import { copySite } from '../helpers/dev-server.js'
import { freePort, startDevServerProcess, type DevServerProcess } from '../helpers/dev-server-process.js'
import { DETAILS, OUTLINE, content, createTestRuntime, fakeModelEnv, requestsContaining, sentences, until } from '../helpers/runtime.js'

let fake: FakeLlm
let root: string
let server: DevServerProcess | undefined
const skills = [writeSkill, editSkill]

beforeAll(async () => {
  fake = await startFakeLlm()
  root = await copySite()
})

afterAll(async () => {
  await server?.kill()
  await fake?.close()
  await fs.rm(root, { recursive: true, force: true })
})

describe('a draft interrupted by a dead dev server', () => {
  it('resumes after a restart at the unfinished step, without asking for the outline again', async () => {
    const port = await freePort()
    const env = fakeModelEnv(fake)
    server = await startDevServerProcess({ root, port, env })
    fake.enqueue(OUTLINE, content(['# Understanding ETags\n\n', ...sentences(400)], 20))
    const first = createTestRuntime(server, { skills })
    const running = first.runtime.processInput('write a post about ETags')
    const draft = path.join(root, 'posts/understanding-etags.md')
    await until(async () => (await fs.readFile(draft, 'utf8').catch(() => '')).includes('Sentence 30.'), 15_000, 'the draft to grow')

    await server.kill()
    const interrupted = await running
    expect(interrupted?.outcome).toBe('ERROR')
    const error = first.state.messages.find((message) => message.kind === 'error')
    expect(error).toMatchObject({ code: 'ERR_NETWORK' })
    expect(error?.kind === 'error' && error.message).toMatch(/vitepress dev.*resume/s)

    server = await startDevServerProcess({ root, port, env })
    const second = createTestRuntime(server, { skills })
    await second.runtime.initialize()
    const [task] = second.state.resumable
    expect(task).toMatchObject({ taskId: interrupted!.taskId, skill: 'write', title: 'Write a post about ETags', totalSteps: 9 })
    expect(task!.finishedSteps).toBe(4)

    const preview = await second.runtime.previewResume(task!.taskId)
    expect(preview.finishedSteps).toEqual(['Finding related posts', 'Planning the outline', 'Finding posts to link', 'Creating the draft page'])
    expect(preview.pendingSteps[0]).toBe('Writing the content')
    // A draft save cut off by the kill was noted in the checkpoint before it was sent.
    expect(preview).toMatchObject({ risk: 'low', reasons: [] })

    fake.enqueue(content(['Continued after the crash.\n']), DETAILS)
    const resumed = await second.runtime.resumeTask(task!.taskId)
    expect(resumed?.outcome).toBe('COMPLETED')

    expect(requestsContaining(fake, 'Write an outline')).toHaveLength(1)
    const continuation = requestsContaining(fake, 'Continue exactly where it stops')
    expect(continuation).toHaveLength(1)
    expect(JSON.stringify(continuation[0]!.body.messages)).toContain('Sentence 0.')

    const page = matter(await fs.readFile(draft, 'utf8'))
    expect(page.data).toMatchObject({ title: 'Understanding ETags', tags: ['http', 'caching'] })
    expect(page.data.draft).toBeUndefined()
    expect(page.content).toContain('Sentence 0. ')
    expect(page.content).toContain('Continued after the crash.')
    expect(second.state.resumable).toEqual([])
  }, 90_000)
})
