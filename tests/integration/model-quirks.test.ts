// Every recorded-shape answer in tests/fixtures/models through the real gateway and the real skills:
// what lands on disk has no reasoning, no fenced front matter, no chatter, and the right structure or an honest failure.
import fs from 'node:fs/promises'
import path from 'node:path'
import matter from 'gray-matter'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { builtinSkills } from '../../client/skills/index.js'
import { summarizeSkill } from '../../client/skills/summarize.js'
import { writeSkill } from '../../client/skills/write.js'
import { builtinTools } from '../../client/tools/index.js'
import type { FakeReply } from '../fixtures/fake-llm-server.js'
import { startFakeLlm, type FakeLlm } from '../fixtures/fake-llm-server.js'
import { GOOD_CONTENT, GOOD_DETAILS, GOOD_OUTLINE, MODEL_FIXTURES, REASONING_MARK, TITLE, type ModelFixture } from '../fixtures/models/index.js'
import { startDevServer, type DevServer } from '../helpers/dev-server.js'
import { createTestRuntime, fakeModelEnv, pendingCard, until } from '../helpers/runtime.js'

let fake: FakeLlm
let dev: DevServer
let guide = ''
const GUIDE = 'guide/getting-started.md'
const read = (page: string) => fs.readFile(path.join(dev.root, page), 'utf8')

beforeAll(async () => {
  fake = await startFakeLlm()
  // Named as OpenAI, so the preset applies although the fake's URL is a local one.
  const env = fakeModelEnv(fake)
  const llm = { ...JSON.parse(env.METABLOG_TEST_LLM), provider: 'openai' }
  dev = await startDevServer({ env: { METABLOG_TEST_LLM: JSON.stringify(llm) } })
  guide = await read(GUIDE)
}, 60_000)

afterAll(async () => {
  await dev?.close()
  await fake?.close()
})

/** The write skill's requests in order (outline, content, details), with the fixture in its place. */
function writeQueue(fixture: ModelFixture): FakeReply[] {
  const then = fixture.then ? [fixture.then] : []
  const finished = fixture.expect.outcome === 'COMPLETED'
  if (fixture.step === 'outline') return [fixture.reply, GOOD_CONTENT, GOOD_DETAILS]
  if (fixture.step === 'content') return [GOOD_OUTLINE, fixture.reply, ...then, ...(finished ? [GOOD_DETAILS] : [])]
  if (fixture.step === 'details') return [GOOD_OUTLINE, GOOD_CONTENT, fixture.reply, ...then]
  // The rejected request uses up its reply; the gateway's second try gets the next one.
  if (fixture.reply.rejectStreamOptions) return [{ ...GOOD_OUTLINE, rejectStreamOptions: true }, GOOD_OUTLINE, fixture.reply, GOOD_DETAILS]
  // Transport quirks apply to every request of the run.
  const { text: _text, usage: _usage, ...transport } = fixture.reply
  return [{ ...GOOD_OUTLINE, ...transport }, { ...fixture.reply }, { ...GOOD_DETAILS, ...transport }]
}

async function runWrite(fixture: ModelFixture) {
  fake.reset()
  if (fixture.step === 'error') fake.setDefault(fixture.reply)
  else fake.enqueue(...writeQueue(fixture))
  const { runtime, state } = createTestRuntime(dev, { skills: [writeSkill] })
  const record = await runtime.processInput(`write a post about ${TITLE}`)
  const saved = runtime.logger.entries().find((entry) => entry.event === 'agent.file.saved')?.path as string | undefined
  return { record, state, runtime, saved, page: saved ? await read(saved) : null }
}

/** The chat's text outside the folded reasoning blocks, where reasoning may not appear. */
function unfolded(messages: readonly unknown[]): string {
  return JSON.stringify(messages).replace(/(`{3,})reasoning\\n[\s\S]*?\\n\1/g, '')
}

/** What no page may carry, whatever the model sent. */
function expectCleanPage(page: string) {
  expect(page).not.toContain(REASONING_MARK)
  expect(page).not.toMatch(/<\/?think/i)
  expect(page).not.toMatch(/```\s*(ya?ml|markdown|md)\b/)
  expect(page.startsWith('---\n')).toBe(true)
  const { data, content } = matter(page)
  expect(data.title).toBe(TITLE)
  expect(content).not.toMatch(/^(title|date):/m)
  expect(content.trimStart().startsWith(`# ${TITLE}\n`)).toBe(true)
  expect(content).not.toMatch(/^(sure|certainly|here('s| is)|好的|以下是)/im)
  expect(content).not.toMatch(/let me know|i hope this helps|希望|请告诉我|\*\*title/i)
}

const writeFixtures = MODEL_FIXTURES.filter((fixture) => ['outline', 'content', 'details', 'error'].includes(fixture.step) || fixture.id === 'lmstudio-no-usage-in-stream')

describe('the write skill against every recorded model shape', () => {
  it('has a corpus of at least 30 fixtures, each naming its source', () => {
    expect(MODEL_FIXTURES.length).toBeGreaterThanOrEqual(30)
    expect(new Set(MODEL_FIXTURES.map((fixture) => fixture.id)).size).toBe(MODEL_FIXTURES.length)
    for (const fixture of MODEL_FIXTURES) expect(fixture.source.length, fixture.id).toBeGreaterThan(20)
  })

  it.each(writeFixtures.map((fixture) => [fixture.id, fixture] as const))('%s', async (_id, fixture) => {
    const { record, state, runtime, page } = await runWrite(fixture)
    if (fixture.expect.outcome === 'COMPLETED') {
      expect(record?.outcome).toBe('COMPLETED')
      expectCleanPage(page!)
      const { data, content } = matter(page!)
      expect(data.draft).toBeUndefined()
      expect(content).toContain('## Conditional requests')
      expect(content).toMatch(/412|If-Match with the ETag/)
      expect(typeof data.description).toBe('string')
      expect(Array.isArray(data.tags ?? [])).toBe(true)
    } else {
      expect(record?.outcome).toBe('ERROR')
      const card = state.messages.find((message) => message.kind === 'error')
      expect(card).toMatchObject({ kind: 'error', code: fixture.expect.code })
      if (fixture.expect.message) expect(card?.kind === 'error' && card.message).toMatch(fixture.expect.message)
      if (page !== null) {
        // Never a finished post: the draft stays a draft, saying what happened.
        const { data, content } = matter(await read(runtime.logger.entries().find((entry) => entry.event === 'agent.file.saved')!.path as string))
        expect(data.draft).toBe(true)
        expect(content).toContain('no post was written')
        expect(content).not.toContain('## Conditional requests')
      }
    }
    if (fixture.step === 'content' && fixture.then) {
      const contentRequests = fake.chatRequests.filter((request) => JSON.stringify(request.body.messages).includes('Write the full post'))
      expect(contentRequests).toHaveLength(2)
      expect(contentRequests[1]!.body.messages[0].content).toContain('Your last answer was')
    }
    if (fixture.step === 'details' && fixture.then) {
      expect(JSON.stringify(fake.chatRequests.at(-1)!.body.messages)).toContain('That was not the JSON asked for')
      if (fixture.id.includes('fallback')) expect(matter(page!).data.description).toBe(TITLE)
    }
    if (fixture.reply.reasoning || fixture.reply.text?.join('').includes(REASONING_MARK)) {
      // Shown folded in the panel, never in a message's own text.
      expect(JSON.stringify(state.messages)).toContain(REASONING_MARK)
      expect(unfolded(state.messages)).not.toContain(REASONING_MARK)
    }
    if (fixture.id === 'lmstudio-no-usage-in-stream') {
      const cost = runtime.costs.task(record!.taskId)
      expect(cost).toMatchObject({ unknownTokens: false, estimated: true })
      expect(cost.completionTokens).toBeGreaterThan(0)
      expect(cost.cost).toBeGreaterThan(0)
    }
  }, 60_000)
})

describe('summaries and agent turns', () => {
  for (const fixture of MODEL_FIXTURES.filter((candidate) => candidate.step === 'summary')) {
    it(`${fixture.id}: the description saved has no reasoning or chatter`, async () => {
      fake.reset()
      await fs.writeFile(path.join(dev.root, GUIDE), guide)
      fake.enqueue(fixture.reply)
      const { runtime, state } = createTestRuntime(dev, { skills: [summarizeSkill] })
      const running = runtime.processInput('/summarize and save it as the description', { currentFile: GUIDE })
      const card = await until(() => pendingCard(state.messages, 'approval'), 30_000, 'the approval card')
      runtime.decide(card.id, { action: 'accept' })
      expect((await running)?.outcome).toBe('COMPLETED')
      const page = await read(GUIDE)
      expect(matter(page).data.description).toBe('The guide shows how to install the site and start writing.')
      expect(page).not.toContain(REASONING_MARK)
      // The panel shows the reply as it streamed, chatter and all; reasoning only folded.
      expect(unfolded(state.messages)).not.toContain(REASONING_MARK)
      if (fixture.reply.text?.join('').includes(REASONING_MARK)) expect(JSON.stringify(state.messages)).toContain('reasoning\\n')
    }, 60_000)
  }

  for (const fixture of MODEL_FIXTURES.filter((candidate) => candidate.step === 'agent')) {
    it(`${fixture.id}: the agent's answer carries no reasoning; the panel shows it folded`, async () => {
      fake.reset()
      fake.enqueue(fixture.reply)
      const { runtime, state } = createTestRuntime(dev, { skills: builtinSkills, tools: builtinTools })
      const record = await runtime.processInput('Give me an overview of the blog, please')
      expect(record).toMatchObject({ skill: 'agent', outcome: 'COMPLETED' })
      const replies = state.messages.filter((message) => message.kind === 'assistant').map((message) => (message.kind === 'assistant' ? message.text : ''))
      expect(replies.filter((text) => !text.includes('```reasoning'))).toEqual(['The blog covers getting started and writing posts.'])
      expect(replies.filter((text) => text.includes('```reasoning'))).toHaveLength(1)
      expect(JSON.stringify(state.messages)).toContain(REASONING_MARK)
      expect(unfolded(state.messages)).not.toContain(REASONING_MARK)
    }, 60_000)
  }
})

describe('the gateway and the provider table', () => {
  it('reports the configured model’s context window and abilities in GET /llm/status', async () => {
    const { json } = await dev.api('/llm/status')
    expect(json).toMatchObject({ configured: true, provider: 'openai', model: 'gpt-4o-mini', contextWindow: 128_000, capabilities: { tools: true, reasoning: false, streamOptions: true, known: true } })
  })

  // Last: once a server rejects stream_options, the gateway never sends it again.
  it('vllm-rejects-stream-options: asks again without stream_options, and the post is still written', async () => {
    const fixture = MODEL_FIXTURES.find((candidate) => candidate.id === 'vllm-rejects-stream-options')!
    const { record, page, runtime } = await runWrite(fixture)
    expect(record?.outcome).toBe('COMPLETED')
    expectCleanPage(page!)
    const [first, second, ...rest] = fake.chatRequests
    expect(first!.body.stream_options).toEqual({ include_usage: true })
    expect(second!.body.stream_options).toBeUndefined()
    expect(second!.body.messages).toEqual(first!.body.messages)
    for (const request of rest) expect(request.body.stream_options).toBeUndefined()
    expect(runtime.costs.task(record!.taskId)).toMatchObject({ estimated: true })
    expect((await dev.api('/llm/status')).json.capabilities.streamOptions).toBe(false)
  }, 60_000)

  // Last too: the gateway remembers that the configured model refused tools.
  it('ollama-gemma2-no-tools: the agent goes on in text actions, with a note, and later requests skip the tools at once', async () => {
    const fixture = MODEL_FIXTURES.find((candidate) => candidate.id === 'ollama-gemma2-no-tools')!
    fake.reset()
    fake.enqueue(fixture.reply, { text: ['```action\n{"tool": "list_pages", "arguments": {}}\n```'] }, { text: ['The blog has a guide and some posts.'] })
    const first = createTestRuntime(dev, { skills: builtinSkills, tools: builtinTools })
    const record = await first.runtime.processInput('Give me an overview of the blog, please')
    expect(record).toMatchObject({ skill: 'agent', outcome: fixture.expect.outcome })
    expect(first.state.messages.filter((message) => message.kind === 'tool').map((row) => row.kind === 'tool' && row.status)).toEqual(['done'])
    expect(JSON.stringify(first.state.messages)).toContain('plain-text action protocol')
    expect(fake.chatRequests.map((request) => Boolean(request.body.tools))).toEqual([true, false, false])
    expect((await dev.api('/llm/status')).json.capabilities.tools).toBe(false)

    // The next page load: the status says no tools, so the agent speaks text actions from the first request.
    fake.reset()
    fake.enqueue({ text: ['Still a guide and some posts.'] })
    const next = createTestRuntime(dev, { skills: builtinSkills, tools: builtinTools })
    const again = await next.runtime.processInput('Give me an overview of the blog, please')
    expect(again).toMatchObject({ skill: 'agent', outcome: 'COMPLETED' })
    for (const request of fake.chatRequests) expect(request.body.tools).toBeUndefined()
    expect(fake.chatRequests[0]!.body.messages[0].content).toContain('```action')
  }, 60_000)
})

describe('POST /llm/test', () => {
  it('reports reachability, the listed models and a one-token round trip with its latency', async () => {
    fake.reset()
    fake.enqueue({ text: ['OK'] })
    const { status, json } = await dev.api('/llm/test', { method: 'POST', json: {} })
    expect(status).toBe(200)
    expect(json).toMatchObject({ ok: true, stage: 'done', model: 'gpt-4o-mini', models: ['fake-model'] })
    expect(json.latencyMs).toBeGreaterThanOrEqual(0)
    expect(fake.chatRequests[0]!.body).toMatchObject({ max_tokens: 1 })
  })

  it('names a refused key as the problem, never the key', async () => {
    fake.reset()
    fake.setDefault({ status: 401, errorCode: 'invalid_api_key', errorMessage: 'Incorrect API key provided: sk-test-runtime-key.' })
    const { json } = await dev.api('/llm/test', { method: 'POST', json: {} })
    expect(json).toMatchObject({ ok: false, stage: 'auth', error: { code: 'ERR_LLM_AUTH' } })
    expect(JSON.stringify(json)).not.toContain('sk-test-runtime-key')
  })
})
