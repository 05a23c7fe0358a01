// The graph page on a generated blog big enough (over 1,000 links) for its base layer to be painted as
// pixels in a worker: the layout runs in its worker and settles, the edges and nodes show, and search
// and hover still work; on the dev server and in a built site.
import { execFile } from 'node:child_process'
import fs from 'node:fs/promises'
import path from 'node:path'
import { promisify } from 'node:util'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { syntheticBlog } from '../bench/knowledge-synthetic-blog.js'
import { framesDrawn, launchBrowser, screenshot, warmUpDevServer } from '../helpers/browser.js'
import { copySite, makeTempDir, REPO_ROOT, startDevServer, type DevServer } from '../helpers/dev-server.js'
import { servePreview } from '../helpers/preview.js'

let dev: DevServer
let root: string
let browser: Browser
let page: Page
const pageErrors: string[] = []

beforeAll(async () => {
  root = await copySite()
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
    const workers: string[] = []
    page.on('worker', (worker) => workers.push(new URL(worker.url()).pathname))
    await page.goto(`${dev.origin}/graph`)
    await expectDrawn(page, graph.nodes.length)
    // The layout's and the painter's, from the one bundled script the package's dev bundle ships.
    expect(workers).toHaveLength(2)
    expect(workers.every((url) => url.endsWith('/dist/client/dev/graph-worker.js'))).toBe(true)
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
    // The dimmed base layer comes back from the painting worker, then the neighbourhood is drawn over it.
    await page.waitForFunction(() => Number((document.querySelector('.metablog-graph canvas') as HTMLCanvasElement).dataset.highlighted) > 2, null, { timeout: 10_000 })
    await screenshot(page, 'graph-large-hover')
    expect(pageErrors).toEqual([])
  }, 180_000)

  it('draws the same in a built site, its layout and painter both from the one worker asset', async () => {
    const built = await makeTempDir('graph-build')
    await fs.cp(root, built, { recursive: true, filter: (file) => !/[\\/]\.vitepress[\\/](cache|dist)$/.test(file) })
    await promisify(execFile)(process.execPath, [path.join(REPO_ROOT, 'node_modules/vitepress/bin/vitepress.js'), 'build', built], { cwd: REPO_ROOT })
    const preview = await servePreview(path.join(built, '.vitepress/dist'))
    try {
      const assets = await fs.readdir(path.join(built, '.vitepress/dist/assets'))
      const asset = assets.find((name) => /^metablog-graph\.[\w-]+\.json$/.test(name))!
      const graph = JSON.parse(await fs.readFile(path.join(built, '.vitepress/dist/assets', asset), 'utf8')) as { nodes: unknown[] }
      const workers: string[] = []
      page.on('worker', (worker) => workers.push(new URL(worker.url()).pathname))
      await page.goto(`${preview.origin}/graph`)
      await expectDrawn(page, graph.nodes.length)
      expect(workers).toHaveLength(2)
      expect(new Set(workers).size).toBe(1)
      expect(workers[0]).toMatch(/^\/assets\/graph-worker\.[\w-]+\.js$/)
      expect(pageErrors).toEqual([])
    } finally {
      preview.close()
    }
  }, 240_000)
})

/** Waits until the canvas shows every page, settled; then counts its edges' and nodes' pixels. */
async function expectDrawn(page: Page, count: number): Promise<void> {
  await page.waitForFunction((count) => {
    const canvas = document.querySelector('.metablog-graph canvas') as HTMLCanvasElement | null
    return canvas?.dataset.nodes === String(count) && canvas.dataset.layout === 'settled'
  }, count, { timeout: 90_000 })
  // Edges: pixels of the theme's edge colour at the quiet edges' 45% opacity. Nodes: pixels of the
  // first group's colour, solid inside and, once settled, anti-aliased at the rim.
  const drawn = await page.evaluate(() => {
    const canvas = document.querySelector('.metablog-graph canvas') as HTMLCanvasElement
    const probe = document.createElement('canvas').getContext('2d')!
    const rgb = (variable: string) => {
      probe.fillStyle = getComputedStyle(canvas).getPropertyValue(variable).trim()
      probe.fillRect(0, 0, 1, 1)
      return [...probe.getImageData(0, 0, 1, 1).data].slice(0, 3)
    }
    const edge = rgb('--vp-c-text-3')
    const group = rgb('--vp-c-indigo-1')
    const pixels = canvas.getContext('2d')!.getImageData(0, 0, canvas.width, canvas.height).data
    const counts = { edges: 0, solid: 0, rim: 0 }
    for (let index = 0; index < pixels.length; index += 4) {
      const near = (color: number[], within: number) => Math.abs(pixels[index]! - color[0]!) + Math.abs(pixels[index + 1]! - color[1]!) + Math.abs(pixels[index + 2]! - color[2]!) < within
      const alpha = pixels[index + 3]!
      if (near(edge, 12) && Math.abs(alpha - 115) <= 3) counts.edges++
      if (near(group, 6) && alpha === 255) counts.solid++
      if (near(group, 24) && alpha > 0 && alpha < 250) counts.rim++
    }
    return counts
  })
  expect(drawn.edges).toBeGreaterThan(20_000)
  expect(drawn.solid).toBeGreaterThan(500)
  expect(drawn.rim).toBeGreaterThan(300)
}
