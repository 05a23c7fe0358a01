// Issue 13 points 5, 9 and 11 in Chromium: the slash menu, states that tell the truth, small screens and the keyboard.
import fs from 'node:fs/promises'
import path from 'node:path'
import type { Page } from 'playwright-core'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { framesDrawn, screenshot } from '../helpers/browser.js'
import { startStudio, type Studio } from './harness.js'

let studio: Studio

beforeAll(async () => {
  studio = await startStudio()
})

afterEach(() => studio.fake.reset())

afterAll(async () => {
  await studio?.close()
})

const ETAGS = 'posts/understanding-etags.md'
const input = (page: Page) => page.getByRole('textbox', { name: 'Message MetaBlog' })

async function selectParagraph(page: Page, wanted: string): Promise<void> {
  await page.evaluate((text) => {
    const paragraph = [...document.querySelectorAll('.vp-doc p')].find((element) => element.textContent?.includes(text))!
    const range = document.createRange()
    range.selectNodeContents(paragraph)
    const selection = window.getSelection()!
    selection.removeAllRanges()
    selection.addRange(range)
    document.dispatchEvent(new Event('selectionchange'))
  }, wanted)
}

/** The focused element's accessible-ish name: aria-label, else its text. */
const focusedName = (page: Page) => page.evaluate(() => document.activeElement?.getAttribute('aria-label') ?? document.activeElement?.textContent?.trim() ?? '')

async function waitIdle(page: Page): Promise<void> {
  await page.getByTestId('metablog-progress').waitFor({ state: 'detached', timeout: 20_000 })
}

describe('the panel in the browser', () => {
  it('slash menu: /delete is offered like in /help, the last entry is fully visible, Enter on a complete command sends', async () => {
    const { page } = studio
    await studio.visit('/posts/understanding-etags')
    await studio.openPanel()
    await input(page).fill('/')
    const menu = page.getByTestId('metablog-slash-menu')
    await menu.waitFor()
    const names = await menu.getByRole('option').evaluateAll((options) => options.map((option) => option.getAttribute('data-command')))
    expect(names).toContain('delete')
    expect(names.at(-1)).toBe('help')

    // ArrowUp wraps to the last entry, which must be scrolled fully into the menu's and the window's view.
    await input(page).press('ArrowUp')
    const last = menu.getByRole('option').last()
    expect(await last.getAttribute('aria-selected')).toBe('true')
    const [option, box] = [await last.boundingBox(), await menu.boundingBox()]
    expect(option!.y).toBeGreaterThanOrEqual(box!.y)
    expect(option!.y + option!.height).toBeLessThanOrEqual(box!.y + box!.height + 0.5)
    expect(box!.y).toBeGreaterThanOrEqual(0)
    await studio.shot('13-slash-menu-last-entry')

    // A command that takes nothing after it is sent by the first Enter.
    await input(page).fill('/gra')
    await menu.waitFor()
    await input(page).press('Enter')
    await page.getByTestId('metablog-message').filter({ hasText: '/graph' }).first().waitFor()
    expect(await input(page).inputValue()).toBe('')
    await waitIdle(page)
  })

  it('keyboard: a skip link reaches the assistant early, Tab wraps to the header, Escape closes from the page', async () => {
    const { page } = studio
    await studio.visit('/posts/understanding-etags')
    if (await page.getByRole('dialog', { name: 'MetaBlog assistant' }).isVisible()) await page.keyboard.press('Escape')
    await page.getByRole('dialog', { name: 'MetaBlog assistant' }).waitFor({ state: 'detached' })

    // From the top of the page: VitePress's "Skip to content", then ours.
    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur())
    const names: string[] = []
    for (let step = 0; step < 4 && !names.at(-1)?.startsWith('Skip to the MetaBlog assistant'); step++) {
      await page.keyboard.press('Tab')
      names.push(await focusedName(page))
    }
    // Right after VitePress's own skip link (the first press may only bring the focus into the document).
    expect(names.at(-1)).toMatch(/^Skip to the MetaBlog assistant \(Alt\+K\)$/)
    expect(names.at(-2)).toBe('Skip to content')
    await studio.shot('13-skip-link')
    await page.keyboard.press('Enter')
    await page.getByRole('dialog', { name: 'MetaBlog assistant' }).waitFor()
    expect(await page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe('Message MetaBlog')

    // Something in the conversation, so New conversation is enabled.
    await input(page).fill('/help')
    await input(page).press('Enter')
    await page.getByTestId('metablog-message').filter({ hasText: 'Try one of these' }).last().waitFor()
    await input(page).focus()

    // Forwards from the message box: New conversation and Close come round.
    const reached = new Set<string>()
    for (let step = 0; step < 25 && !(reached.has('New conversation') && reached.has('Close')); step++) {
      await page.keyboard.press('Tab')
      reached.add(await focusedName(page))
      expect(await page.evaluate(() => !!document.activeElement?.closest('[data-testid="metablog-panel"]'))).toBe(true)
    }
    expect(reached).toContain('New conversation')
    expect(reached).toContain('Close')

    // Escape with the focus on the page itself.
    await page.locator('.vp-doc h1').first().click()
    expect(await page.evaluate(() => !!document.activeElement?.closest('[data-testid="metablog-panel"]'))).toBe(false)
    await page.keyboard.press('Escape')
    await page.getByRole('dialog', { name: 'MetaBlog assistant' }).waitFor({ state: 'detached' })
  })

  it('an accepted edit that meets the author\'s change says so; the edit mode\'s buttons stay above the progress footer', async () => {
    const { page, fake, root } = studio
    await studio.visit('/posts/understanding-etags')
    await selectParagraph(page, 'An ETag (entity tag)')
    await page.getByRole('button', { name: 'Ask MetaBlog' }).click()
    fake.enqueue({ text: ['ETags ', 'fingerprint ', 'a version.'] })
    await studio.ask('make this more concise')
    await page.getByTestId('metablog-approval').filter({ has: page.getByRole('button', { name: 'Accept', exact: true }) }).getByTestId('metablog-diff').waitFor()
    const card = page.getByTestId('metablog-approval').last()

    // A short window: the editor makes the card taller than the conversation's visible part.
    await page.setViewportSize({ width: 1280, height: 600 })
    await card.getByRole('button', { name: 'Edit', exact: true }).click()
    const acceptEdited = card.getByRole('button', { name: 'Accept edited' })
    await acceptEdited.waitFor()
    const footerTop = async () => (await page.getByTestId('metablog-progress').boundingBox())!.y
    const buttonBottom = async () => {
      const box = (await acceptEdited.boundingBox())!
      return box.y + box.height
    }
    expect(await buttonBottom()).toBeLessThanOrEqual(await footerTop())
    // Scrolled back to the card's top (to read what it changes), the buttons still show above the footer.
    await card.evaluate((element) => element.scrollIntoView({ block: 'start' }))
    await framesDrawn(page)
    expect(await buttonBottom()).toBeLessThanOrEqual(await footerTop())
    await studio.shot('13-edit-mode-buttons')
    await card.getByRole('button', { name: 'Cancel', exact: true }).click()
    await page.setViewportSize({ width: 1280, height: 900 })

    // The author changes the page in their editor before accepting.
    const file = path.join(root, ETAGS)
    await fs.appendFile(file, '\nA line the author added meanwhile.\n')
    await card.getByRole('button', { name: 'Accept', exact: true }).click()
    const conflict = page.getByTestId('metablog-conflict')
    await conflict.waitFor({ timeout: 15_000 })
    const settled = card
    expect(await settled.getAttribute('data-outcome')).toBe('conflict')
    expect(await settled.getByTestId('metablog-approval-outcome').innerText()).toContain('Not applied')
    await studio.shot('13-accepted-then-conflict')
    await conflict.getByRole('button', { name: 'Drop' }).click()
    await waitIdle(page)
    expect(await settled.getAttribute('data-outcome')).toBe('dropped')
    expect(await studio.read(ETAGS)).toContain('An ETag (entity tag)')
  })

  it('Undo after Accept puts the page back through a hash-guarded write', async () => {
    const { page, fake } = studio
    await studio.visit('/posts/understanding-etags')
    const before = await studio.read(ETAGS)
    await selectParagraph(page, 'An ETag (entity tag)')
    await page.getByRole('button', { name: 'Ask MetaBlog' }).click()
    fake.enqueue({ text: ['ETags name a version.'] })
    await studio.ask('make this shorter')
    const card = page.getByTestId('metablog-approval').filter({ has: page.getByRole('button', { name: 'Accept', exact: true }) })
    await card.getByRole('button', { name: 'Accept', exact: true }).click()
    await page.locator('.vp-doc p', { hasText: 'ETags name a version.' }).waitFor({ timeout: 15_000 })
    await waitIdle(page)
    const applied = page.getByTestId('metablog-approval').last()
    await applied.getByTestId('metablog-undo').click()
    await page.locator('[data-testid="metablog-approval"][data-outcome="undone"]').waitFor()
    expect(await studio.read(ETAGS)).toBe(before)
    await page.locator('.vp-doc p', { hasText: 'An ETag (entity tag)' }).waitFor({ timeout: 15_000 })
  })

  it('an unreachable model: one error card with `ollama serve` as code, and no resume banner for the same failure', async () => {
    const { page, fake } = studio
    await studio.visit('/posts/streaming-llm-responses')
    await studio.openPanel()
    await page.getByRole('button', { name: 'New conversation' }).click()
    fake.setDefault({ hangUp: true })
    await studio.ask('summarize this article')
    const error = page.getByTestId('metablog-error').filter({ hasText: 'Could not reach the model' })
    await error.waitFor({ timeout: 30_000 })
    expect(await error.locator('code', { hasText: 'ollama serve' }).count()).toBe(1)
    expect(await error.innerText()).not.toContain('`')
    await waitIdle(page)

    // After a reload the checkpoint is listed again: still only the error card offers it.
    await studio.visit('/posts/streaming-llm-responses')
    await studio.openPanel()
    const failed = await page.getByTestId('metablog-error').filter({ hasText: 'Could not reach the model' }).last().getAttribute('data-task-id')
    expect(failed).toBeTruthy()
    await studio.panelLoaded()
    expect(await page.locator(`[data-testid="metablog-resume-task"][data-task-id="${failed}"]`).count()).toBe(0)
    await studio.shot('13-unreachable-one-card')
  })

  it('screenshots: light and dark', async () => {
    const { page } = studio
    await studio.visit('/posts/understanding-etags')
    await studio.openPanel()
    await studio.shot('13-panel-light')
    await page.evaluate(() => localStorage.setItem('vitepress-theme-appearance', 'dark'))
    await studio.visit('/posts/understanding-etags')
    await studio.openPanel()
    expect(await page.evaluate(() => document.documentElement.classList.contains('dark'))).toBe(true)
    await studio.shot('13-panel-dark')
    await page.evaluate(() => localStorage.setItem('vitepress-theme-appearance', 'light'))
  })

  it('at 390 px the open panel closes when the author follows a link', async () => {
    const context = await studio.page.context().browser()!.newContext({ viewport: { width: 390, height: 844 } })
    const phone = await context.newPage()
    const errors: string[] = []
    phone.on('pageerror', (error) => errors.push(String(error)))
    await phone.goto(`${studio.origin}/posts/understanding-etags`)
    const orb = phone.getByRole('button', { name: 'Open MetaBlog assistant' })
    await orb.waitFor()
    if (!(await phone.getByRole('dialog', { name: 'MetaBlog assistant' }).isVisible())) await orb.click()
    await phone.getByRole('dialog', { name: 'MetaBlog assistant' }).waitFor()
    await screenshot(phone, '13-panel-390px')

    await phone.evaluate(() => document.querySelector<HTMLAnchorElement>('.vp-doc a[href*="atomic-file-writes"]')!.click())
    await phone.waitForURL(/atomic-file-writes/)
    await phone.getByRole('dialog', { name: 'MetaBlog assistant' }).waitFor({ state: 'detached' })
    await orb.waitFor()
    await screenshot(phone, '13-after-navigation-390px')
    expect(errors).toEqual([])
    await context.close()
  })

  it('raised no page errors', () => {
    expect(studio.pageErrors).toEqual([])
  })
})
