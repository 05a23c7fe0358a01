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

const answer = (text: string): FakeReply => ({ text: text.match(/.{1,12}/gs)!, usage: { prompt_tokens: 300, completion_tokens: 12 } })

describe('the model picker in the browser', () => {
  it('switches the model of the next request, and the dot follows the last real request', async () => {
    const { page, fake } = studio
    await studio.visit('/posts/understanding-etags')
    await studio.openPanel()
    // The studio configures gpt-4o-mini; the fake provider lists fake-model through GET /v1/models.
    const picker = page.getByLabel('Model for this conversation')
    await picker.waitFor({ timeout: 15_000 })
    expect(await picker.evaluate((select: HTMLSelectElement) => [...select.options].map((option) => option.value))).toEqual(['gpt-4o-mini', 'fake-model'])
    expect(await picker.inputValue()).toBe('gpt-4o-mini')
    const dot = page.getByTestId('metablog-model-health')
    expect(await dot.getAttribute('data-health')).toBe('startup')

    await picker.selectOption('fake-model')
    fake.enqueue(answer('An ETag names one version of a page.'))
    await studio.ask('what is an ETag, in one sentence?')
    await page.getByTestId('metablog-message').filter({ hasText: 'An ETag names one version' }).waitFor({ timeout: 20_000 })
    expect(fake.chatRequests.at(-1)!.body.model).toBe('fake-model')
    await page.locator('[data-testid="metablog-model-health"][data-health="ok"]').waitFor()
    await studio.shot('14-model-picker-ok')

    // A refused key turns the dot red, with the code in its tooltip.
    await page.getByTestId('metablog-progress').waitFor({ state: 'detached' })
    fake.setDefault({ status: 401, errorMessage: 'Incorrect API key provided.', errorCode: 'invalid_api_key' })
    await studio.ask('and a Last-Modified header?')
    await page.locator('[data-testid="metablog-model-health"][data-code="ERR_LLM_AUTH"]').waitFor({ timeout: 20_000 })
    expect(fake.chatRequests.at(-1)!.body.model).toBe('fake-model')
    expect(await dot.getAttribute('title')).toContain('ERR_LLM_AUTH')
    expect(await dot.evaluate((element) => element.classList.contains('error'))).toBe(true)
    await studio.shot('14-model-picker-auth-failed')
  })

  it('keeps the picked model with the conversation across a reload; a new conversation starts on the default', async () => {
    const { page, fake } = studio
    await studio.visit('/posts/understanding-etags')
    await studio.openPanel()
    const picker = page.getByLabel('Model for this conversation')
    await picker.waitFor({ timeout: 15_000 })
    // The first test's conversation ran on fake-model: a new one starts on the configured model.
    const restart = page.getByRole('button', { name: 'New conversation' })
    if (await restart.isEnabled()) await restart.click()
    await page.waitForFunction(() => (document.querySelector('[data-testid="metablog-model-picker"]') as HTMLSelectElement | null)?.value === 'gpt-4o-mini')
    await picker.selectOption('fake-model')
    fake.enqueue(answer('Weak ETags compare loosely.'))
    await studio.ask('what is a weak ETag?')
    await page.getByTestId('metablog-message').filter({ hasText: 'Weak ETags compare loosely.' }).waitFor({ timeout: 20_000 })
    expect(fake.chatRequests.at(-1)!.body.model).toBe('fake-model')
    await page.getByTestId('metablog-progress').waitFor({ state: 'detached' })
    // The session log is written in batches a moment later; the reload restores from it.
    const token = (await page.locator('meta[name="metablog-token"]').getAttribute('content'))!
    const sessionId = await page.evaluate(() => sessionStorage.getItem('metablog:session-id:v1'))
    await until(async () => {
      const response = await fetch(`${studio.origin}/__metablog/api/sessions/${sessionId}`, { headers: { 'x-metablog-token': token } })
      return response.ok && ((await response.json()) as { entries: { type: string }[] }).entries.some((entry) => entry.type === 'assistant')
    }, 10_000, 'the session log')

    await page.reload()
    // The panel stays open across a reload (clicking the orb now could close it mid-transition).
    await page.getByRole('dialog', { name: 'MetaBlog assistant' }).waitFor()
    await page.waitForFunction(() => (document.querySelector('[data-testid="metablog-model-picker"]') as HTMLSelectElement | null)?.value === 'fake-model', undefined, { timeout: 15_000 })
    fake.enqueue(answer('They ignore byte-level differences.'))
    await studio.ask('why loosely?')
    await page.getByTestId('metablog-message').filter({ hasText: 'They ignore byte-level differences.' }).waitFor({ timeout: 20_000 })
    expect(fake.chatRequests.at(-1)!.body.model).toBe('fake-model')
    await page.getByTestId('metablog-progress').waitFor({ state: 'detached' })
    await page.getByRole('button', { name: 'New conversation' }).click()
    await page.waitForFunction(() => (document.querySelector('[data-testid="metablog-model-picker"]') as HTMLSelectElement | null)?.value === 'gpt-4o-mini')
  }, 90_000)

  it('"Test connection" shows the round trip with its latency, and a refused key as the key problem', async () => {
    const { page, fake } = studio
    await studio.openPanel()
    await page.getByTestId('metablog-progress').waitFor({ state: 'detached' })
    await page.getByTestId('metablog-check-connection').click()
    const card = page.getByTestId('metablog-setup')
    await card.waitFor()
    expect(await card.textContent()).toContain('Connection')
    fake.enqueue({ text: ['OK'] })
    await card.getByTestId('metablog-test-connection').click()
    const result = card.getByTestId('metablog-test-result')
    await result.waitFor({ timeout: 20_000 })
    expect(await result.textContent()).toMatch(/^Connected: reached 127\.0\.0\.1:\d+, the key was accepted, and gpt-4o-mini answered a one-token request in \d+ ms\.$/)
    expect(fake.chatRequests.at(-1)!.body).toMatchObject({ model: 'gpt-4o-mini', max_tokens: 1 })
    await studio.shot('14-test-connection-ok')

    fake.setDefault({ status: 401, errorMessage: 'Incorrect API key provided.', errorCode: 'invalid_api_key' })
    await card.getByTestId('metablog-test-connection').click()
    await page.waitForFunction(() => document.querySelector('[data-testid="metablog-test-result"]')?.textContent?.startsWith('The key was refused'), undefined, { timeout: 20_000 })
    const refused = (await result.textContent())!
    expect(refused).toContain('401: Incorrect API key provided.')
    expect(refused).toContain('OPENAI_API_KEY')
    expect(refused).not.toContain('sk-e2e-not-a-real-key')
    await studio.shot('14-test-connection-refused')
  }, 60_000)

  it('raised no page errors', () => {
    expect(studio.pageErrors).toEqual([])
  })
})
