import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import type { FakeReply } from '../fixtures/fake-llm-server.js'
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

  it('raised no page errors', () => {
    expect(studio.pageErrors).toEqual([])
  })
})
