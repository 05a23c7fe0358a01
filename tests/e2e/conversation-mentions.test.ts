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

const answer = (text: string): FakeReply => ({ text: [text], usage: { prompt_tokens: 900, completion_tokens: 20 } })
const userMessage = (index: number) => {
  const messages = studio.fake.chatRequests[index]!.body.messages as { role: string; content: string }[]
  return messages.findLast((message) => message.role === 'user')!.content
}

describe('@-mentions in the composer', () => {
  it('picks pages by keyboard only: "@" and "[[" open a search-backed listbox, Enter makes a chip, Escape closes it, and the pages go with the request', async () => {
    const { page, fake } = studio
    await studio.visit('/posts/understanding-etags')
    await studio.openPanel()
    const input = page.getByRole('textbox', { name: 'Message MetaBlog' })
    await input.focus()
    await page.keyboard.type('compare this with ')
    // The query arrives in one input event: typed key by key on a loaded machine, a search for part of
    // it (it runs 120 ms after the last key) could answer after the option below is found.
    await page.keyboard.insertText('@atomic')
    const picker = page.getByRole('listbox', { name: 'Pages to mention' })
    await picker.getByRole('option', { name: /posts\/atomic-file-writes\.md/ }).waitFor({ timeout: 10_000 })
    expect(await input.getAttribute('aria-controls')).toBe(await picker.getAttribute('id'))
    const first = await picker.getByRole('option').first().getAttribute('data-path')
    expect(await input.getAttribute('aria-activedescendant')).toBe(await picker.getByRole('option').first().getAttribute('id'))
    const count = await picker.getByRole('option').count()
    // Down then Up lands on the first option again.
    await page.keyboard.press('ArrowDown')
    if (count > 1) expect(await picker.getByRole('option', { selected: true }).getAttribute('data-path')).not.toBe(first)
    await page.keyboard.press('ArrowUp')
    expect(await picker.getByRole('option', { selected: true }).getAttribute('data-path')).toBe(first)
    await page.keyboard.press('Enter')
    await picker.waitFor({ state: 'detached' })
    await page.getByTestId('metablog-mention').filter({ hasText: /atomic|Atomic/ }).waitFor()
    expect(await input.inputValue()).toBe('compare this with ')

    // "[[" opens it too; Escape closes the picker and leaves the panel open.
    await page.keyboard.type('and [[')
    await picker.waitFor({ timeout: 10_000 })
    await page.keyboard.press('Escape')
    await picker.waitFor({ state: 'detached' })
    expect(await page.getByRole('dialog', { name: 'MetaBlog assistant' }).isVisible()).toBe(true)
    await page.keyboard.press('Backspace')
    await page.keyboard.press('Backspace')
    await page.keyboard.insertText('[[streaming')
    await picker.getByRole('option', { name: /posts\/streaming-llm-responses\.md/ }).waitFor({ timeout: 10_000 })
    await page.keyboard.press('Tab')
    await picker.waitFor({ state: 'detached' })
    expect(await page.getByTestId('metablog-mention').count()).toBe(2)
    await studio.shot('12-mention-chips')

    fake.enqueue(answer('The two posts agree on temp files.'))
    await page.keyboard.type('please')
    await page.keyboard.press('Enter')
    await page.getByTestId('metablog-message').filter({ hasText: 'The two posts agree on temp files.' }).waitFor({ timeout: 20_000 })
    await until(() => fake.chatRequests.length === 1, 5000, 'the request')
    const sent = userMessage(0)
    expect(sent.startsWith('compare this with and please')).toBe(true)
    expect(sent).toContain(`<page path="${first}"`)
    expect(sent).toContain('<page path="posts/streaming-llm-responses.md"')
    await page.getByTestId('metablog-message').filter({ hasText: /^Attached / }).waitFor()
    expect(await page.getByTestId('metablog-mention').count()).toBe(0)
    expect(studio.pageErrors).toEqual([])
  }, 120_000)
})
