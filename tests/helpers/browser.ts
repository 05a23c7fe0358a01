import fs from 'node:fs/promises'
import path from 'node:path'
import { chromium, type Browser, type Page } from 'playwright-core'
import { dependenciesSettled, REPO_ROOT } from './dev-server.js'

export const SCREENSHOT_DIR = path.join(REPO_ROOT, 'tests/e2e/screenshots')

const CHROMIUM_PATHS = [process.env.CHROMIUM_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser'].filter(Boolean) as string[]

async function findChromium(): Promise<string> {
  for (const candidate of CHROMIUM_PATHS) {
    try {
      await fs.access(candidate)
      return candidate
    } catch {
      // try the next one
    }
  }
  throw new Error('Chromium was not found: install it with `apt-get install -y chromium` or set CHROMIUM_PATH.')
}

/** Debian's Chromium, headless, with no background traffic (this machine has no internet). */
export async function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: await findChromium(),
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
  })
}

export async function screenshot(page: Page, name: string): Promise<string> {
  await fs.mkdir(SCREENSHOT_DIR, { recursive: true })
  const file = path.join(SCREENSHOT_DIR, `${name}.png`)
  await page.screenshot({ path: file, fullPage: false })
  return file
}

/**
 * A cold dev server's first page ends Vite's dependency crawl, and the optimizer's rerun may reload
 * that page a second or two later, under a test that has moved on: one throwaway page of its own
 * first, then quiet in the optimizer's cache.
 */
export async function warmUpDevServer(browser: Browser, origin: string, root: string, { route = '/', timeout = 30_000 } = {}): Promise<void> {
  const page = await browser.newPage()
  try {
    await page.goto(`${origin}${route}`, { timeout })
    await page.waitForLoadState('networkidle', { timeout })
  } finally {
    await page.close()
  }
  await dependenciesSettled(root)
}

/** Resolves once the page has drawn `count` more frames (a change scheduled for the next frame is on screen). */
export async function framesDrawn(page: Page, count = 2): Promise<void> {
  await page.evaluate(async (frames) => {
    for (let frame = 0; frame < frames; frame++) await new Promise((resolve) => requestAnimationFrame(resolve))
  }, count)
}
