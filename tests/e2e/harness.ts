import fs from 'node:fs/promises'
import path from 'node:path'
import matter from 'gray-matter'
import type { Browser, Page } from 'playwright-core'
import { startFakeLlm, type FakeLlm } from '../fixtures/fake-llm-server.js'
import { launchBrowser, screenshot, warmUpDevServer } from '../helpers/browser.js'
import { copySite, REPO_ROOT } from '../helpers/dev-server.js'
import { freePort, startDevServerProcess, type DevServerProcess } from '../helpers/dev-server-process.js'

/** The demo blog on a real `vitepress dev` process, the fake model behind its gateway, and Chromium. */
export async function startStudio() {
  const fake = await startFakeLlm()
  const root = await copySite(path.join(REPO_ROOT, 'docs'))
  const port = await freePort()
  const env = { OPENAI_API_KEY: 'sk-e2e-not-a-real-key', OPENAI_BASE_URL: fake.baseURL, METABLOG_MODEL: 'gpt-4o-mini' }
  let server: DevServerProcess = await startDevServerProcess({ root, port, env })
  const browser: Browser = await launchBrowser()
  await warmUpDevServer(browser, server.origin, root)
  const page: Page = await browser.newPage({ viewport: { width: 1280, height: 900 } })
  const pageErrors: string[] = []
  page.on('pageerror', (error) => pageErrors.push(String(error)))

  return {
    fake,
    root,
    page,
    pageErrors,
    get origin() {
      return server.origin
    },
    /**
     * Starts the server again on the same port. The open page's Vite client polls for it and reloads
     * itself once it answers, as an author sees it; this waits for that reload, so that no visit races it.
     */
    async restartServer() {
      const reloaded = page.waitForEvent('load', { timeout: 60_000 })
      server = await startDevServerProcess({ root, port, env })
      await reloaded
    },
    killServer: () => server.kill(),
    read: (file: string) => fs.readFile(path.join(root, file), 'utf8'),
    async frontMatter(file: string) {
      return matter(await fs.readFile(path.join(root, file), 'utf8'))
    },
    async visit(route: string) {
      await page.goto(`${server.origin}${route}`)
      await page.getByRole('button', { name: 'Open MetaBlog assistant' }).waitFor()
    },
    /** Opens the panel unless it is open already (it stays open across reloads). */
    async openPanel() {
      const panel = page.getByRole('dialog', { name: 'MetaBlog assistant' })
      if (!(await panel.isVisible())) await page.getByRole('button', { name: 'Open MetaBlog assistant' }).click()
      await panel.waitFor()
    },
    /**
     * Until the open panel has loaded what its start loads: the model's status, then the resumable
     * tasks (the header's model leaves "Connecting…" only after both), so a check that a task is
     * not offered twice looks at the list as loaded, not at an empty one.
     */
    async panelLoaded() {
      await page.locator('[data-testid="metablog-model"]:not([data-state="loading"])').waitFor({ timeout: 15_000 })
    },
    /** Opens the panel and sends a request as the author types it. */
    async ask(text: string) {
      await this.openPanel()
      const input = page.getByRole('textbox', { name: 'Message MetaBlog' })
      await input.fill(text)
      await input.press('Enter')
    },
    /** Marks the document so a test can tell a live update from a reload. */
    async markDocument() {
      await page.evaluate(() => ((window as unknown as { __metablogMark: number }).__metablogMark = 1))
    },
    async stillSameDocument() {
      return page.evaluate(() => (window as unknown as { __metablogMark?: number }).__metablogMark === 1)
    },
    shot: (name: string) => screenshot(page, name),
    async close() {
      await browser.close()
      await server.kill()
      await fake.close()
      await fs.rm(root, { recursive: true, force: true })
    },
  }
}

export type Studio = Awaited<ReturnType<typeof startStudio>>
