import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startStudio, type Studio } from './harness.js'

let studio: Studio

beforeAll(async () => {
  studio = await startStudio()
})

afterAll(async () => {
  await studio?.close()
})

describe('the first page on the dev server', () => {
  it('paints before the assistant’s code is fetched, and the orb follows', async () => {
    const { page } = studio
    // The dev server compiles the page's module once (asked for as the page's import asks): a cold
    // compile on a loaded machine can outlast the orb's fallback timer (it mounts at first paint, or after 3 s without one).
    const compiled = await fetch(`${studio.origin}/posts/atomic-file-writes.md?import`)
    expect(compiled.headers.get('content-type')).toMatch(/javascript/)
    await page.goto(`${studio.origin}/posts/atomic-file-writes`)
    await page.getByRole('button', { name: 'Open MetaBlog assistant' }).waitFor()
    const timings = await page.evaluate(() => ({
      paint: performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? null,
      // The orb's chunk of the dev bundle (the orb, its panel and the runtime).
      orb: performance.getEntriesByType('resource').find((entry) => /\/dist\/client\/dev\/chunks\/AIChatOrb-\w+\.js$/.test(entry.name))?.startTime ?? null,
      page: performance.getEntriesByType('resource').find((entry) => entry.name.includes('atomic-file-writes.md'))?.startTime ?? null,
    }))
    expect(timings.paint).not.toBeNull()
    expect(timings.page).not.toBeNull()
    expect(timings.orb).not.toBeNull()
    // The orb and its panel (one chunk of some 500 KB) never compete with the page's own modules.
    expect(timings.orb!).toBeGreaterThanOrEqual(timings.paint!)
    expect(studio.pageErrors).toEqual([])
  })
})
