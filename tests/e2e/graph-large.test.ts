// The graph page on a generated blog big enough (over 1,000 links) for its edges to be written as
// pixels: the layout runs in the worker and settles, the edges show, and search and hover still work.
import fs from 'node:fs/promises'
import path from 'node:path'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { syntheticBlog } from '../bench/knowledge-synthetic-blog.js'
import { framesDrawn, launchBrowser, screenshot, warmUpDevServer } from '../helpers/browser.js'
import { copySite, startDevServer, type DevServer } from '../helpers/dev-server.js'

let dev: DevServer
let browser: Browser
let page: Page
const pageErrors: string[] = []

beforeAll(async () => {
  const root = await copySite()
  for (const { path: file, content } of syntheticBlog(300).pages) {
    await fs.mkdir(path.dirname(path.join(root, file)), { recursive: true })
    await fs.writeFile(path.join(root, file), content)
  }
  await fs.writeFile(path.join(root, 'graph.md'), '---\nsidebar: false\naside: false\n---\n\n# Graph\n\n<KnowledgeGraph />\n')
  dev = await startDevServer({ root })
  browser = await launchBrowser()
  page = await browser.newPage({ viewport: { width: 1280, height: 900 } })
  page.on('pageerror', (error) => pageErrors.push(String(error)))
  await warmUpDevServer(browser, dev.origin, dev.root, { route: '/graph', timeout: 120_000 })
}, 240_000)

afterAll(async () => {
  await browser?.close()
  await dev?.close()
})

describe('the graph page with over 1,000 links', () => {
  it('draws every page and its links, settles, and still finds and highlights a page', async () => {
    const graph = (await dev.api('/graph')).json as { nodes: { path: string; title: string }[]; edges: { source: string; target: string }[] }
    expect(graph.edges.length).toBeGreaterThan(1000)
    await page.goto(`${dev.origin}/graph`)
    await page.waitForFunction((count) => {
      const canvas = document.querySelector('.metablog-graph canvas') as HTMLCanvasElement | null
      return canvas?.dataset.nodes === String(count) && canvas.dataset.layout === 'settled'
    }, graph.nodes.length, { timeout: 90_000 })
    // Edges: pixels of the theme's edge colour at the quiet edges' 45% opacity.
    const edgePixels = await page.evaluate(() => {
      const canvas = document.querySelector('.metablog-graph canvas') as HTMLCanvasElement
      const probe = document.createElement('canvas').getContext('2d')!
      probe.fillStyle = getComputedStyle(canvas).getPropertyValue('--vp-c-text-3').trim()
      probe.fillRect(0, 0, 1, 1)
      const [red, green, blue] = probe.getImageData(0, 0, 1, 1).data
      const pixels = canvas.getContext('2d')!.getImageData(0, 0, canvas.width, canvas.height).data
      let count = 0
      for (let index = 0; index < pixels.length; index += 4) {
        const near = Math.abs(pixels[index]! - red!) + Math.abs(pixels[index + 1]! - green!) + Math.abs(pixels[index + 2]! - blue!) < 12
        if (near && Math.abs(pixels[index + 3]! - 115) <= 3) count++
      }
      return count
    })
    expect(edgePixels).toBeGreaterThan(20_000)
    await screenshot(page, 'graph-large')

    // The most-linked page: found by search, centred, then hovered with its neighbours.
    const degree = new Map<string, number>()
    for (const edge of graph.edges) for (const end of [edge.source, edge.target]) degree.set(end, (degree.get(end) ?? 0) + 1)
    const hub = graph.nodes.reduce((best, node) => ((degree.get(node.path) ?? 0) > (degree.get(best.path) ?? 0) ? node : best))
    const search = page.getByRole('searchbox', { name: 'Find a page in the graph' })
    await search.fill(hub.title)
    await search.press('Enter')
    // The view centres on the match in the next frame.
    await framesDrawn(page)
    const box = (await page.locator('.metablog-graph canvas').boundingBox())!
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2)
    const tooltip = page.getByRole('tooltip')
    await tooltip.waitFor({ timeout: 10_000 })
    expect(await tooltip.textContent()).toBe(hub.title)
    expect(Number(await page.locator('.metablog-graph canvas').getAttribute('data-highlighted'))).toBeGreaterThan(2)
    await screenshot(page, 'graph-large-hover')
    expect(pageErrors).toEqual([])
  }, 180_000)
})
