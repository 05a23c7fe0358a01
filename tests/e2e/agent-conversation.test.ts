import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import type { FakeReply } from '../fixtures/fake-llm-server.js'
import { until } from '../helpers/runtime.js'
import { startStudio, type Studio } from './harness.js'

let studio: Studio

beforeAll(async () => {
  studio = await startStudio()
})

afterEach(() => studio.fake.reset())

afterAll(async () => {
  await studio?.close()
})

const PAGE = 'posts/atomic-file-writes.md'
const OLD = 'We need a different approach.'
const SENTENCE = ' Even the rename is only durable after an fsync of the temp file.'
const call = (id: string, name: string, args: unknown): FakeReply => ({
  toolCalls: [{ id, name, arguments: JSON.stringify(args) }],
  usage: { prompt_tokens: 900, completion_tokens: 40 },
})
const answer = (text: string): FakeReply => ({ text: text.match(/.{1,12}/gs)!, chunkDelayMs: 20, usage: { prompt_tokens: 1400, completion_tokens: 30 } })
const offered = (index: number) => (studio.fake.chatRequests[index]!.body.tools ?? []).map((tool: { function: { name: string } }) => tool.function.name)

describe('a conversation with the agent in the browser', () => {
  it('reads the page, proposes an edit with its diff, and applies it once accepted', async () => {
    const { page, fake } = studio
    await studio.visit('/posts/atomic-file-writes')
    await studio.markDocument()
    // The agent.maxSteps option reaches the page (Vite defines it as a global in dev).
    expect(await page.evaluate('globalThis.__METABLOG_AGENT_MAX_STEPS__')).toBe(10)
    const before = await studio.read(PAGE)
    fake.enqueue(
      call('call_read', 'read_page', { path: PAGE }),
      call('call_edit', 'edit_page', { path: PAGE, edits: [{ oldText: OLD, newText: `${OLD}${SENTENCE}` }] }),
      answer('I added a sentence about fsync to “The problem with writeFile”.'),
    )
    await studio.ask('add a sentence about fsync to the second section')

    const rows = page.getByTestId('metablog-tool-call')
    await rows.filter({ hasText: `Read ${PAGE}` }).waitFor({ timeout: 15_000 })
    const approval = page.getByTestId('metablog-approval').filter({ has: page.getByRole('button', { name: 'Accept' }) })
    await approval.getByTestId('metablog-diff').waitFor()
    expect(await approval.getByTestId('metablog-diff').innerText()).toContain('fsync of the temp file')
    await studio.shot('6-agent-approval')
    await approval.getByRole('button', { name: 'Accept' }).click()

    await page.getByTestId('metablog-message').filter({ hasText: 'I added a sentence about fsync' }).waitFor({ timeout: 15_000 })
    await page.locator('.vp-doc p', { hasText: 'only durable after an fsync' }).waitFor({ timeout: 10_000 })
    expect(await studio.stillSameDocument()).toBe(true)
    expect(await studio.read(PAGE)).toBe(before.replace(OLD, `${OLD}${SENTENCE}`))
    expect(await rows.evaluateAll((elements) => elements.map((element) => [element.querySelector('.summary')!.textContent, element.getAttribute('data-status')]))).toEqual([
      [`Read ${PAGE}`, 'done'],
      [`Edited ${PAGE} (1 change)`, 'done'],
    ])
    await rows.first().locator('summary').click()
    await rows.first().locator('pre').first().waitFor()
    const reply = page.getByTestId('metablog-message').filter({ hasText: 'I added a sentence about fsync' })
    await reply.getByTestId('metablog-reply-cost').filter({ hasText: /tokens/ }).waitFor()
    expect(await reply.getByTestId('metablog-reply-mode').innerText()).toBe('Ask')
    await page.getByTestId('metablog-progress').waitFor({ state: 'detached' })
    await studio.shot('6-agent-done')
  })

  it('in Plan mode offers read tools only and ends in a plan; "Run this plan" carries it out in Ask mode', async () => {
    const { page, fake } = studio
    await studio.visit('/posts/understanding-etags')
    await studio.openPanel()
    await page.getByTestId('metablog-mode').getByRole('radio', { name: 'Plan' }).click()
    const plan = '1. In posts/understanding-etags.md, add a “See also” line linking [[atomic-file-writes]].'
    fake.enqueue(call('call_search', 'search_pages', { query: 'atomic writes' }), answer(plan))
    await studio.ask('link my atomic writes post from this one')

    const run = page.getByRole('button', { name: 'Run this plan' })
    await run.waitFor({ timeout: 15_000 })
    await page.getByTestId('metablog-tool-call').filter({ hasText: /Searched “atomic writes” — \d+ page/ }).waitFor()
    expect(offered(0)).toEqual(['search_pages', 'list_pages', 'read_page', 'get_links'])
    expect(fake.chatRequests).toHaveLength(2)
    await page.getByTestId('metablog-progress').waitFor({ state: 'detached' })
    await studio.shot('7-agent-plan')

    const target = 'posts/understanding-etags.md'
    const source = await studio.read(target)
    const anchor = source.trimEnd().split('\n').at(-1)!
    fake.reset()
    fake.enqueue(
      call('call_read', 'read_page', { path: target }),
      call('call_edit', 'edit_page', { path: target, edits: [{ oldText: anchor, newText: `${anchor}\n\nSee also [[atomic-file-writes]].` }] }),
      answer('Linked it.'),
    )
    await run.click()
    const approval = page.getByTestId('metablog-approval').filter({ has: page.getByRole('button', { name: 'Accept' }) })
    await approval.getByTestId('metablog-diff').waitFor({ timeout: 15_000 })
    expect(offered(0)).toContain('edit_page')
    expect(JSON.stringify(fake.chatRequests[0]!.body.messages.at(-1))).toContain('See also')
    await approval.getByRole('button', { name: 'Accept' }).click()
    await page.getByTestId('metablog-message').filter({ hasText: 'Linked it.' }).waitFor({ timeout: 15_000 })
    await until(async () => (await studio.read(target)).includes('See also [[atomic-file-writes]].'), 10_000, 'the link on disk')
    await page.getByTestId('metablog-progress').waitFor({ state: 'detached' })
    await studio.shot('7-agent-plan-run')
  })

  it('raised no page errors', () => {
    expect(studio.pageErrors).toEqual([])
  })
})
