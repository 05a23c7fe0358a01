// History on the dev server's real session log: the page appends, lists, reads and continues it.
import fs from 'node:fs/promises'
import path from 'node:path'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import type { SessionEntry } from '../../client/api/sessions.js'
import type { FakeReply } from '../fixtures/fake-llm-server.js'
import { until } from '../helpers/runtime.js'
import { startStudio, type Studio } from './harness.js'

let studio: Studio

/** Every logged entry, read from the JSONL files the dev server keeps. */
async function loggedEntries(): Promise<SessionEntry[]> {
  const folder = path.join(studio.root, '.vitepress/cache/metablog/sessions')
  const names = await fs.readdir(folder).catch(() => [] as string[])
  const texts = await Promise.all(names.filter((name) => name.endsWith('.jsonl')).map((name) => fs.readFile(path.join(folder, name), 'utf8')))
  return texts.flatMap((text) => text.split('\n').filter(Boolean).map((line) => JSON.parse(line) as SessionEntry))
}

beforeAll(async () => {
  studio = await startStudio()
})

afterEach(() => studio.fake.reset())

afterAll(async () => {
  await studio?.close()
})

const answer = (text: string): FakeReply => ({ text: [text], usage: { prompt_tokens: 500, completion_tokens: 20 } })

describe('History in the panel', () => {
  it('lists a past conversation, opens it read-only, exports it as Markdown, and Continue carries its context into the next request', async () => {
    const { page, fake } = studio
    await studio.visit('/posts/atomic-file-writes')
    fake.enqueue(answer('Fsync flushes the temp file before the rename.'))
    await studio.ask('what does fsync add here?')
    await page.getByTestId('metablog-message').filter({ hasText: 'Fsync flushes the temp file' }).waitFor({ timeout: 20_000 })
    await until(async () => (await loggedEntries()).some((entry) => entry.type === 'assistant'), 10_000, 'the logged answer')

    await page.getByRole('button', { name: 'New conversation' }).click()
    await page.getByRole('button', { name: 'History' }).click()
    const history = page.getByTestId('metablog-history')
    const item = history.getByTestId('metablog-history-session').filter({ hasText: 'what does fsync add here?' })
    await item.waitFor({ timeout: 10_000 })
    expect(await item.innerText()).toMatch(/\$\d/)
    await item.click()
    await history.getByTestId('metablog-history-messages').getByText('Fsync flushes the temp file before the rename.').waitFor()
    const download = page.waitForEvent('download')
    await history.getByRole('button', { name: 'Export as Markdown' }).click()
    expect((await download).suggestedFilename()).toMatch(/^metablog-s-.+\.md$/)
    await studio.shot('12-history-open')

    await history.getByRole('button', { name: 'Continue' }).click()
    await history.waitFor({ state: 'detached' })
    await page.getByTestId('metablog-messages').getByText('Fsync flushes the temp file before the rename.').waitFor()
    fake.enqueue(answer('Shorter: fsync makes it durable.'))
    await studio.ask('shorter please')
    await page.getByTestId('metablog-message').filter({ hasText: 'Shorter: fsync makes it durable.' }).waitFor({ timeout: 20_000 })
    const sent = (fake.chatRequests.at(-1)!.body.messages as { role: string; content: string }[]).filter((message) => message.role !== 'system')
    expect(sent).toEqual([
      { role: 'user', content: 'what does fsync add here?' },
      { role: 'assistant', content: 'Fsync flushes the temp file before the rename.' },
      { role: 'user', content: 'shorter please' },
    ])

    // A reload keeps the panel's messages (sessionStorage) and brings the memory back from the log.
    await until(async () => (await loggedEntries()).some((entry) => entry.type === 'assistant' && entry.text.startsWith('Shorter')), 10_000, 'the logged follow-up')
    await page.reload()
    await page.getByRole('button', { name: 'Open MetaBlog assistant' }).waitFor()
    await studio.openPanel()
    await page.getByTestId('metablog-messages').getByText('Shorter: fsync makes it durable.').waitFor()
    fake.enqueue(answer('Fsync 让写入持久。'))
    await studio.ask('now in Chinese')
    await page.getByTestId('metablog-message').filter({ hasText: 'Fsync 让写入持久。' }).waitFor({ timeout: 20_000 })
    const afterReload = (fake.chatRequests.at(-1)!.body.messages as { role: string; content: string }[]).filter((message) => message.role !== 'system')
    expect(afterReload.map((message) => message.content)).toEqual([
      'what does fsync add here?',
      'Fsync flushes the temp file before the rename.',
      'shorter please',
      'Shorter: fsync makes it durable.',
      'now in Chinese',
    ])
    expect(studio.pageErrors).toEqual([])
  }, 120_000)
})
