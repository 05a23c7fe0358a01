// A visitor in a long folder, in real Chromium: the sidebar shows a window and "More (N)…"; "More" expands
// the folder in place (from the build's JSON asset, or from the dev server) and an old post is reached by
// keyboard alone. In dev, a new post appears in the windowed sidebar without a reload.
import { execFile } from 'node:child_process'
import fs from 'node:fs/promises'
import path from 'node:path'
import { promisify } from 'node:util'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { SIDEBAR_WINDOW } from '../../server/knowledge/sidebar-window.js'
import { launchBrowser, warmUpDevServer } from '../helpers/browser.js'
import { makeTempDir, REPO_ROOT, startDevServer, type DevServer } from '../helpers/dev-server.js'
import { servePreview } from '../helpers/preview.js'

const VITEPRESS = path.join(REPO_ROOT, 'node_modules/vitepress/bin/vitepress.js')
const POSTS = 40
const day = (index: number) => new Date(Date.UTC(2020, 0, 1) + index * 86_400_000).toISOString().slice(0, 10)

let root: string
let browser: Browser
let page: Page
let preview: Awaited<ReturnType<typeof servePreview>>
let previewOrigin: string
let dev: DevServer
const pageErrors: string[] = []

async function write(file: string, text: string): Promise<void> {
  await fs.mkdir(path.dirname(path.join(root, file)), { recursive: true })
  await fs.writeFile(path.join(root, file), text)
}

const sidebar = () => page.locator('.VPSidebar')
const sidebarLinks = () => sidebar().locator('a.VPLink').evaluateAll((links) => links.map((link) => link.getAttribute('href')))
const focusedHref = () => page.evaluate(() => document.activeElement?.getAttribute('href') ?? document.activeElement?.textContent ?? '')

/** Tabs from "More" through the sidebar until the old post is focused, then opens it with Enter. */
async function openByKeyboard(href: string): Promise<void> {
  const more = sidebar().getByRole('button', { name: /More \(\d+\)…/ })
  await more.focus()
  await page.keyboard.press('Enter')
  // Focus moves to the first post that was hidden; from there the keyboard walks on.
  await sidebar().locator(`a[href="${href}"]`).waitFor()
  for (let step = 0; step < POSTS && (await focusedHref()) !== href; step++) await page.keyboard.press('Tab')
  expect(await focusedHref()).toBe(href)
  await page.keyboard.press('Enter')
  await page.waitForURL((url) => url.pathname === href)
  await page.locator('.VPDoc h1', { hasText: 'Post 1' }).waitFor()
}

beforeAll(async () => {
  root = await makeTempDir('sidebar-more')
  await write('index.md', '---\nlayout: home\n---\n')
  // The two newest posts link the two oldest: they have backlinks and a local graph, p1's three screens down.
  const text = (index: number) => (index >= POSTS - 2 ? 'Text, after [[p0]] and [[p1]].' : index === 1 ? 'A long post.\n\n'.repeat(120) : 'Text.')
  for (let index = 0; index < POSTS; index++) await write(`posts/p${index}.md`, `---\ndate: ${day(index)}\n---\n\n# Post ${index}\n\n${text(index)}\n`)
  await write('.vitepress/config.mts', "import { defineConfig } from 'vitepress'\nimport { withMetaBlog } from 'metablog'\n\nexport default withMetaBlog(defineConfig({ title: 'T', cleanUrls: true }))\n")
  await write('.vitepress/theme/index.ts', "import MetaBlogTheme from 'metablog/theme'\n\nexport default MetaBlogTheme\n")
  await promisify(execFile)(process.execPath, [VITEPRESS, 'build', root], { cwd: REPO_ROOT })
  const dist = path.join(root, '.vitepress/dist')
  preview = await servePreview(dist)
  previewOrigin = preview.origin
  browser = await launchBrowser()
  page = await browser.newPage({ viewport: { width: 1280, height: 900 } })
  page.on('pageerror', (error) => pageErrors.push(String(error)))
}, 180_000)

afterAll(async () => {
  await browser?.close()
  preview?.close()
  await dev?.close()
  if (root) await fs.rm(root, { recursive: true, force: true })
})

describe('a long folder on the built site', () => {
  it('shows a window and More; More expands in place and an old post is reached by keyboard', async () => {
    await page.goto(`${previewOrigin}/posts/p39`)
    await sidebar().getByRole('button', { name: `More (${POSTS - SIDEBAR_WINDOW})…` }).waitFor()
    expect(await sidebarLinks()).toHaveLength(SIDEBAR_WINDOW)
    await openByKeyboard('/posts/p1')
    // The page came from the router, not a reload of More's page: the folder stays open, with every post.
    expect(await sidebarLinks()).toHaveLength(POSTS)
    expect(pageErrors).toEqual([])
  })

  it('expands More with a mouse click too (the theme stops clicks from bubbling out of its sidebar)', async () => {
    await page.goto(`${previewOrigin}/posts/p39`)
    await sidebar().getByRole('button', { name: `More (${POSTS - SIDEBAR_WINDOW})…` }).click()
    await sidebar().locator('a[href="/posts/p0"]').waitFor()
    expect(await sidebarLinks()).toHaveLength(POSTS)
    await sidebar().locator('a[href="/posts/p0"]').click()
    await page.locator('.VPDoc h1', { hasText: 'Post 0' }).waitFor()
    expect(pageErrors).toEqual([])
  })

  it('opens an old post with its neighbours in the window, and the pager leads to them', async () => {
    await page.goto(`${previewOrigin}/posts/p5`)
    const links = await sidebarLinks()
    expect(links).toEqual(expect.arrayContaining(['/posts/p6', '/posts/p5', '/posts/p4']))
    expect(links.length).toBeLessThanOrEqual(SIDEBAR_WINDOW + 3)
    await expect(page.locator('.VPDocFooter .pager-link.prev').getAttribute('href')).resolves.toBe('/posts/p6')
    await expect(page.locator('.VPDocFooter .pager-link.next').getAttribute('href')).resolves.toBe('/posts/p4')
    expect(pageErrors).toEqual([])
  })
})

describe('the local graph under a post on the built site', () => {
  it('loads only on a page that shows it, once the reader nears it', async () => {
    const graphCode: string[] = []
    const watch = (on: Page) => on.on('request', (request) => /\/knowledge-graph\.[\w-]+\.js$/.test(request.url()) && graphCode.push(request.url()))
    const reader = await browser.newPage({ viewport: { width: 1280, height: 900 } })
    watch(reader)
    try {
      // No page links p5: no frame, and the graph's code is never fetched.
      await reader.goto(`${previewOrigin}/posts/p5`)
      await reader.waitForLoadState('networkidle')
      expect(await reader.locator('.metablog-backlinks').count()).toBe(0)
      expect(graphCode).toEqual([])
      // p1 is linked, its frame three screens down: fetched when the reader scrolls towards it.
      await reader.goto(`${previewOrigin}/posts/p1`)
      await reader.waitForLoadState('networkidle')
      expect(await reader.locator('.metablog-backlinks figure.metablog-graph').count()).toBe(1)
      expect(graphCode).toEqual([])
      // The block's scoped style (compiled into the site bundle) reaches it.
      expect(await reader.locator('.metablog-backlinks').evaluate((section) => getComputedStyle(section).marginTop)).toBe('48px')
      await reader.locator('.metablog-backlinks').scrollIntoViewIfNeeded()
      await reader.waitForFunction(() => Number(document.querySelector('.metablog-backlinks .metablog-graph canvas')?.getAttribute('data-labels')) > 0, null, { timeout: 30_000 })
      expect(graphCode).toHaveLength(1)
    } finally {
      await reader.close()
    }
  })


  it('is drawn in the frame the build rendered for it, which keeps its size', async () => {
    const figure = (on: Page) => on.locator('.metablog-backlinks figure.metablog-graph')
    // Without JavaScript: the build's HTML, with the graph's frame and caption but no graph.
    const still = await browser.newPage({ viewport: { width: 1280, height: 900 }, javaScriptEnabled: false })
    await still.goto(`${previewOrigin}/posts/p0`)
    await expect(figure(still).locator('figcaption').textContent()).resolves.toMatch(/^3 pages · 2 links · /)
    const frame = (await figure(still).boundingBox())!
    await still.close()
    await page.goto(`${previewOrigin}/posts/p0`)
    await page.waitForFunction(() => Number(document.querySelector('.metablog-backlinks .metablog-graph canvas')?.getAttribute('data-labels')) > 0, null, { timeout: 30_000 })
    const drawn = (await figure(page).boundingBox())!
    expect(Math.abs(drawn.y - frame.y)).toBeLessThanOrEqual(1)
    expect(Math.abs(drawn.height - frame.height)).toBeLessThanOrEqual(1)
    expect(await page.locator('.metablog-backlinks li a').allTextContents()).toEqual(expect.arrayContaining([`Post ${POSTS - 1}`, `Post ${POSTS - 2}`]))
    expect(pageErrors).toEqual([])
  })
})

describe('a long folder on the dev server', () => {
  it('expands More from the dev server, and shows a new post at once', async () => {
    dev = await startDevServer({ root })
    await warmUpDevServer(browser, dev.origin, root, { route: '/posts/p39' })
    await page.goto(`${dev.origin}/posts/p39`)
    await sidebar().getByRole('button', { name: /More \(\d+\)…/ }).waitFor({ timeout: 30_000 })
    expect(await sidebarLinks()).toHaveLength(SIDEBAR_WINDOW)
    await openByKeyboard('/posts/p1')
    const response = await dev.api('/files', { method: 'PUT', json: { path: 'posts/p40.md', content: `---\ndate: ${day(40)}\n---\n\n# Post 40\n\nNew.\n` }, headers: { 'If-None-Match': '*' } })
    expect(response.status).toBe(201)
    // Live, and windowed for this page: the new post heads the list, the old page keeps its neighbours.
    await sidebar().locator('a[href="/posts/p40"]').waitFor({ timeout: 15_000 })
    expect((await sidebarLinks())[0]).toBe('/posts/p40')
    expect(pageErrors).toEqual([])
  })
})
