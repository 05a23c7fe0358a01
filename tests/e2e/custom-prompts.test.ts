// Custom prompts as files: the demo's prompts are slash commands, and a file added while the page is
// open joins the menu without a reload.
import fs from 'node:fs/promises'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startStudio, type Studio } from './harness.js'

let studio: Studio

beforeAll(async () => {
  studio = await startStudio()
})

afterAll(async () => {
  await studio?.close()
})

describe('custom prompts in the slash menu', () => {
  it('lists the demo prompts and picks up a new prompt file without a reload', async () => {
    const { page } = studio
    await studio.visit('/posts/atomic-file-writes')
    await studio.markDocument()
    await studio.openPanel()
    const input = page.getByRole('textbox', { name: 'Message MetaBlog' })
    const menu = page.getByTestId('metablog-slash-menu')
    await input.fill('/')
    await menu.locator('[data-command=tldr]').waitFor()
    await menu.locator('[data-command=translate-zh]').waitFor()
    expect(await menu.locator('[data-command=outline-check]').count()).toBe(0)

    await fs.writeFile(
      path.join(studio.root, '.vitepress/metablog/prompts/outline-check.md'),
      '---\ncommand: outline-check\ndescription: Check that the headings tell the story\nmode: plan\ntools: [read_page]\n---\nRead {{page}} and say whether its headings alone tell the story. {{input}}\n',
    )
    await input.fill('')
    await input.fill('/outline')
    await menu.locator('[data-command=outline-check]').waitFor({ timeout: 15_000 })
    expect(await menu.locator('[data-command=outline-check]').innerText()).toContain('Check that the headings tell the story')
    expect(await studio.stillSameDocument()).toBe(true)
    await studio.shot('12-custom-prompt-menu')
  }, 90_000)
})
