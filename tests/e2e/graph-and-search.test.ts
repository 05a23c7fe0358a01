// The reading side of the demo in real Chromium: the graph page (theme colours, hover, search) and
// VitePress's own search box finding Chinese words.
import path from 'node:path'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { framesDrawn, launchBrowser, screenshot, warmUpDevServer } from '../helpers/browser.js'
import { copySite, REPO_ROOT, startDevServer, type DevServer } from '../helpers/dev-server.js'

let dev: DevServer
let browser: Browser
let page: Page
const pageErrors: string[] = []

const canvas = () => page.locator('.metablog-graph canvas')

/** Waits until the graph has drawn labels, the layout has settled and a data attribute holds. */
async function canvasData(name: string): Promise<string> {
  return (await canvas().getAttribute(`data-${name}`)) ?? ''
}

beforeAll(async () => {
  dev = await startDevServer({ root: await copySite(path.join(REPO_ROOT, 'docs')) })
  browser = await launchBrowser()
  page = await browser.newPage({ viewport: { width: 1280, height: 900 } })
  page.on('pageerror', (error) => pageErrors.push(String(error)))
  await warmUpDevServer(browser, dev.origin, dev.root, { route: '/graph' })
}, 120_000)

afterAll(async () => {
  await browser?.close()
  await dev?.close()
})

describe('the graph page', () => {
  it("redraws in the dark theme's colours, labels without overlap, hover and search", async () => {
    await page.goto(`${dev.origin}/graph`)
    await page.waitForFunction(() => Number(document.querySelector('.metablog-graph canvas')?.getAttribute('data-labels')) > 5, null, { timeout: 30_000 })
    // Let the layout settle before the pictures.
    await page.waitForTimeout(2500)
    const light = await canvasData('label-color')
    expect(await page.evaluate(() => document.documentElement.classList.contains('dark'))).toBe(false)
    await screenshot(page, 'graph-light')

    await page.locator('.VPNavBarAppearance button').click()
    await page.waitForFunction((before) => document.querySelector('.metablog-graph canvas')?.getAttribute('data-label-color') !== before, light)
    const dark = await canvasData('label-color')
    expect(await page.evaluate(() => document.documentElement.classList.contains('dark'))).toBe(true)
    expect(dark).not.toBe(light)
    // The new colour is the theme's text colour, as the dark page's own text shows it.
    expect(dark).toBe(await page.evaluate(() => getComputedStyle(document.documentElement).getPropertyValue('--vp-c-text-1').trim()))
    // And the canvas really has pixels of it: the labels.
    const labelPixels = await page.evaluate((color) => {
      const element = document.querySelector('.metablog-graph canvas') as HTMLCanvasElement
      const probe = document.createElement('canvas').getContext('2d')!
      probe.fillStyle = color
      probe.fillRect(0, 0, 1, 1)
      const [r, g, b] = probe.getImageData(0, 0, 1, 1).data
      const pixels = element.getContext('2d')!.getImageData(0, 0, element.width, element.height).data
      let count = 0
      for (let index = 0; index < pixels.length; index += 4) {
        if (Math.abs(pixels[index]! - r!) + Math.abs(pixels[index + 1]! - g!) + Math.abs(pixels[index + 2]! - b!) < 30 && pixels[index + 3]! > 200) count++
      }
      return count
    }, dark)
    expect(labelPixels).toBeGreaterThan(200)
    await screenshot(page, 'graph-dark')

    // Search: matches are highlighted, Enter centres the first one; hovering it names it.
    const search = page.getByRole('searchbox', { name: 'Find a page in the graph' })
    await search.fill('etag')
    await expect.poll(() => page.getByRole('status').textContent()).toContain('1 page matches')
    await expect.poll(() => canvasData('highlighted')).toBe('1')
    await search.press('Enter')
    // The view centres on the match in the next frame.
    await framesDrawn(page)
    const box = (await canvas().boundingBox())!
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2)
    const tooltip = page.getByRole('tooltip')
    await tooltip.waitFor({ timeout: 5000 })
    expect(await tooltip.textContent()).toBe('Understanding ETags and optimistic concurrency')
    // Hover shows the page and its neighbours, the rest dimmed.
    expect(Number(await canvasData('highlighted'))).toBeGreaterThan(1)
    await screenshot(page, 'graph-dark-hover')
    expect(pageErrors).toEqual([])
  })

  it('colours by top folder, or by first tag, with a legend', async () => {
    const legend = page.getByRole('list', { name: 'Colours' })
    expect(await legend.textContent()).toContain('posts')
    expect(await legend.textContent()).toContain('zh')
    await page.getByRole('combobox', { name: 'Colour pages by' }).selectOption('tag')
    await expect.poll(() => legend.textContent()).not.toContain('zh')
  })
})

describe('the graph page on a 390 px phone', () => {
  it('keeps its tools, canvas and legend inside the screen', async () => {
    const phone = await browser.newPage({ viewport: { width: 390, height: 844 } })
    try {
      await phone.goto(`${dev.origin}/graph`)
      await phone.waitForFunction(() => Number(document.querySelector('.metablog-graph canvas')?.getAttribute('data-labels')) > 0, null, { timeout: 30_000 })
      await phone.waitForTimeout(2000)
      expect(await phone.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390)
      const search = (await phone.getByRole('searchbox', { name: 'Find a page in the graph' }).boundingBox())!
      expect(search.x + search.width).toBeLessThanOrEqual(390)
      await screenshot(phone, 'graph-390')
    } finally {
      await phone.close()
    }
  })
})

describe('the site search box', () => {
  it('finds 知识图谱 in the three Chinese pages that contain it', async () => {
    await page.goto(`${dev.origin}/`)
    await page.locator('.VPNavBarSearch button').click()
    const input = page.locator('#localsearch-input')
    await input.fill('知识图谱')
    await page.locator('.VPLocalSearchBox .result').first().waitFor({ timeout: 10_000 })
    const titles = await page.locator('.VPLocalSearchBox .result').allTextContents()
    expect(titles.length).toBeGreaterThanOrEqual(3)
    expect(titles.join('\n')).toContain('关于知识图谱与双向链接')
    await screenshot(page, 'site-search-cjk')
  })
})

describe("a page's backlinks on the dev server", () => {
  it('asks for its own neighbourhood only, draws it, and shows a new linking page without a reload', async () => {
    const graphRequests: string[] = []
    const onRequest = (request: { url(): string }) => {
      if (request.url().includes('/__metablog/api/graph')) graphRequests.push(new URL(request.url()).search)
    }
    page.on('request', onRequest)
    await page.goto(`${dev.origin}/posts/atomic-file-writes`)
    const linkedFrom = page.locator('.metablog-backlinks li a')
    // The cheat sheet and the markdown-it post link to it.
    await expect.poll(() => linkedFrom.count(), { timeout: 30_000 }).toBeGreaterThanOrEqual(2)
    expect(await linkedFrom.allTextContents()).not.toContain('Fsync questions')
    // Its small graph loads once the reader nears it, and draws the post's neighbourhood.
    await page.locator('.metablog-backlinks').scrollIntoViewIfNeeded()
    const localGraph = page.locator('.metablog-backlinks .metablog-graph canvas')
    await expect.poll(async () => Number(await localGraph.getAttribute('data-labels')), { timeout: 30_000 }).toBeGreaterThan(0)
    expect(Number(await localGraph.getAttribute('data-nodes'))).toBeGreaterThanOrEqual(3)

    const response = await dev.api('/files', {
      method: 'PUT',
      json: { path: 'notes/fsync-questions.md', content: '---\ntitle: Fsync questions\n---\n\n# Fsync questions\n\nWhen does [[atomic-file-writes]] need an fsync?\n' },
      headers: { 'If-None-Match': '*' },
    })
    expect(response.status).toBe(201)
    await expect.poll(() => linkedFrom.allTextContents(), { timeout: 15_000 }).toContain('Fsync questions')
    // Every graph request the post made named the post: the whole graph never loaded outside the graph page.
    page.off('request', onRequest)
    expect(graphRequests.length).toBeGreaterThanOrEqual(2)
    expect(graphRequests.every((search) => search === '?path=posts%2Fatomic-file-writes.md')).toBe(true)
    expect(pageErrors).toEqual([])
  })
})
