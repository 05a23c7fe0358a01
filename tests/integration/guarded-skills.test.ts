import fs from 'node:fs/promises'
import path from 'node:path'
import matter from 'gray-matter'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { writeSkill } from '../../client/skills/write.js'
import { liveConstructs } from '../../server/content-guard/live-constructs.js'
import { startFakeLlm, type FakeLlm } from '../fixtures/fake-llm-server.js'
import { copySite, startDevServer, type DevServer } from '../helpers/dev-server.js'
import { OUTLINE, content, createTestRuntime, fakeModelEnv, until } from '../helpers/runtime.js'

let fake: FakeLlm
let dev: DevServer
const skills = [writeSkill]
const HOSTILE_TITLE = 'Setup {{ constructor.constructor("window.pwned=1")() }} <img src=x onerror="window.pwned=1"> ]] tips'

beforeAll(async () => {
  fake = await startFakeLlm()
  const root = await copySite()
  // Another page, written by someone else, whose title is hostile: the write skill lists it as related.
  await fs.writeFile(path.join(root, 'guide/hostile.md'), `---\ntitle: '${HOSTILE_TITLE}'\n---\n\nHow to install the thing.\n`)
  dev = await startDevServer({ root, env: fakeModelEnv(fake) })
}, 60_000)

afterEach(() => fake.reset())

afterAll(async () => {
  await dev?.close()
  await fake?.close()
})

const read = (page: string) => fs.readFile(path.join(dev.root, page), 'utf8')

describe('skills that write, behind the content guard', () => {
  it('a refused write ends the task in ERROR with the construct and the line, and the page never gets the text', async () => {
    // A fenced include survives the client's sanitizer (code stays code) but not the guard.
    const body = '# Understanding ETags\n\nAn ETag is a fingerprint.\n\n```ini\n<!--@include: ../.env-->\n```\n'
    fake.enqueue(OUTLINE, content([body]))
    const { runtime, state } = createTestRuntime(dev, { skills })
    const record = await runtime.processInput('write a post about refused includes')
    expect(record?.outcome).toBe('ERROR')
    const card = state.messages.find((message) => message.kind === 'error')
    expect(card).toMatchObject({ kind: 'error', code: 'ERR_UNSAFE_CONTENT' })
    expect(card?.kind === 'error' && card.message).toMatch(/line \d+: `<!--@include:` makes VitePress copy another file/)
    const pages = (await dev.api('/pages')).json.pages as { path: string }[]
    for (const page of pages) expect(await read(page.path)).not.toContain('@include')
  })

  it('a finished post lists a hostile related title escaped, and its front matter as quoted strings', async () => {
    const details = { text: ['{"tags": ["setup"], "description": "Install <b>it</b> with {{ care }}"}'], usage: { prompt_tokens: 20, completion_tokens: 20 } }
    fake.enqueue(OUTLINE, content(['# Understanding ETags\n\nInstall it.\n']), details)
    const { runtime } = createTestRuntime(dev, { skills })
    await until(async () => ((await dev.api('/search?q=install')).json.results as { path: string }[]).some((result) => result.path === 'guide/hostile.md'), 10_000, 'the hostile page indexed')
    const record = await runtime.processInput('write a post about install')
    expect(record?.outcome).toBe('COMPLETED')
    const saves = runtime.logger.entries().filter((entry) => entry.event === 'agent.file.saved')
    const saved = await read(saves.at(-1)!.path as string)
    const related = saved.split('\n').find((line) => line.startsWith('- [[guide/hostile|'))
    expect(related).toBe('- [[guide/hostile|Setup &#123;&#123; constructor.constructor("window.pwned=1")() }} &lt;img src=x onerror="window.pwned=1"> tips]]')
    expect(liveConstructs(saved)).toBe(0)
    const page = matter(saved)
    // plainTitle already drops <>{} from descriptions; what is left is a quoted YAML string.
    expect(saved).toMatch(/^description: "[^"]*"$/m)
    expect(page.data.description).not.toMatch(/<[a-z]/i)
  })
})
