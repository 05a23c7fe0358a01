// The write skill resumed by the real runtime, against a real dev server and a fake OpenAI-compatible model.
import fs from 'node:fs/promises'
import path from 'node:path'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { writeSkill } from '../../../../client/skills/write'
import { startFakeLlm, type FakeLlm } from '../../../fixtures/fake-llm-server'
import { startDevServer, type DevServer } from '../../../helpers/dev-server'
import { DETAILS, OUTLINE, content, createTestRuntime, fakeModelEnv, pendingCard, requestsContaining, sentences, until } from '../../../helpers/runtime'

let fake: FakeLlm
let dev: DevServer

beforeAll(async () => {
  fake = await startFakeLlm()
  dev = await startDevServer({ env: fakeModelEnv(fake) })
})

afterEach(() => fake.reset())

afterAll(async () => {
  await dev?.close()
  await fake?.close()
})

describe('a post whose text had finished streaming', () => {
  it('resumes at the conflict over the draft without asking the model for the text again', async () => {
    // Long enough for a live save (about once a second) to find the author's edit.
    fake.enqueue(OUTLINE, content(['# Understanding ETags\n\n', ...sentences(120)], 20))
    const { runtime, state } = createTestRuntime(dev, { skills: [writeSkill] })
    const running = runtime.processInput('write a post about ETags')
    const draftPath = await until(async () => {
      const { json } = await dev.api('/checkpoints')
      return json.checkpoints[0]?.createdPaths?.[0] as string | undefined
      // Three steps (related posts, outline, posts to link) come first: room for a loaded 2-core machine.
    }, 20_000, 'the draft page')
    const file = path.join(dev.root, draftPath)
    await until(async () => (await fs.readFile(file, 'utf8').catch(() => '')).includes('Sentence 1.'), 10_000, 'a live save')
    const authorsVersion = '# Understanding ETags\n\nThe author rewrote the draft while it streamed.\n'
    await fs.writeFile(file, authorsVersion)

    // The text is complete when the conflict card appears; the author presses Stop before answering.
    const stale = await until(() => pendingCard(state.messages, 'conflict'), 15_000, 'the conflict card')
    expect(runtime.abort()).toBe(true)
    const stopped = await running
    expect(stopped?.outcome).toBe('CANCELLED')
    expect(requestsContaining(fake, 'Write the full post')).toHaveLength(1)

    const spent = runtime.costs.task(stopped!.taskId).calls
    // Risky: the author changed the draft since the task stopped.
    const resuming = runtime.resumeTask(stopped!.taskId, { confirmed: true })
    const conflict = await until(() => state.messages.find((message) => message.kind === 'conflict' && message.id !== stale.id), 10_000, 'the conflict card again')
    expect(requestsContaining(fake, 'Write the full post')).toHaveLength(1)
    expect(requestsContaining(fake, 'Continue exactly where it stops')).toHaveLength(0)

    runtime.decide(conflict.id, 'drop')
    expect((await resuming)?.outcome).toBe('COMPLETED')
    expect(await fs.readFile(file, 'utf8')).toBe(authorsVersion)
    expect(runtime.costs.task(stopped!.taskId).calls).toBe(spent)
    await fs.rm(file)
  }, 60_000)
})
