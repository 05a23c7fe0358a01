// The resume risk check, for tasks the real runtime ran against a dev server and a fake model.
import fs from 'node:fs/promises'
import path from 'node:path'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { deleteSkill } from '../../../../client/skills/delete'
import { summarizeSkill } from '../../../../client/skills/summarize'
import { startFakeLlm, type FakeLlm } from '../../../fixtures/fake-llm-server'
import { copySite, startDevServer, type DevServer } from '../../../helpers/dev-server'
import { createTestRuntime, fakeModelEnv, pendingCard, until } from '../../../helpers/runtime'

let fake: FakeLlm
let dev: DevServer

beforeAll(async () => {
  fake = await startFakeLlm()
  const root = await copySite()
  await fs.mkdir(path.join(root, 'posts'))
  await fs.writeFile(path.join(root, 'posts/etags.md'), '# ETags\n\nAn ETag names one version of a page.\n')
  await fs.writeFile(path.join(root, 'posts/graphs.md'), '# Graphs\n\nGraphs are nodes joined by edges. Graphs model links between posts.\n')
  dev = await startDevServer({ root, env: fakeModelEnv(fake) })
})

afterEach(() => fake.reset())

afterAll(async () => {
  await dev?.close()
  await fake?.close()
})

/** Runs the request on the open page until its approval card, then stops it there. */
async function stopAtApproval(text: string) {
  const { runtime, state } = createTestRuntime(dev, { skills: [deleteSkill, summarizeSkill] })
  const running = runtime.processInput(text, { currentFile: 'posts/etags.md' })
  await until(() => pendingCard(state.messages, 'approval'), 10_000, 'the approval card')
  expect(runtime.abort()).toBe(true)
  const stopped = await running
  expect(stopped?.outcome).toBe('CANCELLED')
  const preview = await runtime.previewResume(stopped!.taskId)
  await runtime.abandonTask(stopped!.taskId)
  return preview
}

describe('the risky-resume warning', () => {
  it('names the page a delete found by its title, not the open page, and says delete', async () => {
    const preview = await stopAtApproval('delete the post about graphs')
    expect(preview.risk).toBe('high')
    expect(preview.reasons).toEqual(['it will delete posts/graphs.md, which this task did not create'])
  })

  it('names the page a summary will be saved to, not the open page', async () => {
    fake.enqueue({ text: ['Graphs are nodes joined by edges.\n\n', '- They model links.\n'] })
    const preview = await stopAtApproval('summarize the post about graphs and save it as its description')
    expect(preview.reasons).toEqual(['it will replace posts/graphs.md, which this task did not create'])
  })
})
