// Skills that move the author between pages, in Chromium on the demo blog: a new post opens when it is
// done, and deleting the page being read leaves it first, for its folder's index, never a 404.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { content } from '../helpers/runtime.js'
import { startStudio, type Studio } from './harness.js'

let studio: Studio

beforeAll(async () => {
  studio = await startStudio()
})

afterEach(() => studio.fake.reset())

afterAll(async () => {
  await studio?.close()
})

const usage = { prompt_tokens: 50, completion_tokens: 20 }

describe('pages the skills open', () => {
  it('opens the new post when it is done, in place, with its title and sections', async () => {
    const { page, fake } = studio
    await studio.visit('/posts/atomic-file-writes')
    await studio.markDocument()
    fake.enqueue(
      { text: ['# offline first apps\n\n## Why offline first\nThe network fails.\n## Syncing changes\nQueues.\n'], usage },
      content(['The network fails on trains.\n\n', 'Syncing changes needs a queue.\n']),
      { text: ['{"tags": ["offline"], "description": "Apps that work without a network."}'], usage },
    )
    await studio.ask('write a post about offline first apps')
    await page.waitForURL(/\/posts\/offline-first-apps$/, { timeout: 30_000 })
    await page.locator('.vp-doc h1', { hasText: 'Offline First Apps' }).waitFor({ timeout: 15_000 })
    await page.locator('.vp-doc h2', { hasText: 'Syncing changes' }).waitFor()
    expect(await studio.stillSameDocument()).toBe(true)
    await studio.shot('pages-1-new-post-opened')
  })

  it('leaves the page being deleted for its folder’s index first: no 404, no error', async () => {
    const { page } = studio
    await studio.visit('/posts/force-directed-graph-canvas')
    await studio.markDocument()
    await studio.ask('delete this page')
    const card = page.getByTestId('metablog-approval')
    await card.waitFor({ timeout: 15_000 })
    await card.getByRole('button', { name: /^(Accept|Delete)/ }).first().click()
    await page.getByTestId('metablog-message').filter({ hasText: 'Deleted posts/force-directed-graph-canvas.md' }).waitFor({ timeout: 15_000 })
    expect(new URL(page.url()).pathname).toBe('/posts/')
    await page.locator('.vp-doc h1', { hasText: 'Posts' }).waitFor()
    await expect(studio.read('posts/force-directed-graph-canvas.md')).rejects.toThrow()
    // A moment for a late HMR update to arrive: the page must stay the index, not turn into a 404.
    await page.waitForTimeout(1500)
    expect(await page.locator('.NotFound').count()).toBe(0)
    expect(await studio.stillSameDocument()).toBe(true)
    await studio.shot('pages-2-deleted-open-page')
  })

  it('raised no page errors', () => {
    expect(studio.pageErrors).toEqual([])
  })
})
