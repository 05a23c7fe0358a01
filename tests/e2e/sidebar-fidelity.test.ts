// MetaBlog draws its generated sidebar itself, one component a group instead of the default theme's two
// a page (see client/theme/sidebar-item.ts). In real Chromium, on two built sites with the same pages,
// one with MetaBlog and one plain VitePress with the same sidebar written in its config, the sidebar
// must be the same elements, classes and attributes, and must answer the mouse, the keyboard and the
// router the same way.
import { execFile } from 'node:child_process'
import fs from 'node:fs/promises'
import path from 'node:path'
import { promisify } from 'node:util'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { KnowledgeIndex } from '../../server/knowledge/knowledge-index.js'
import { launchBrowser } from '../helpers/browser.js'
import { makeTempDir, REPO_ROOT } from '../helpers/dev-server.js'
import { canonicalMarkup } from '../helpers/markup.js'
import { servePreview } from '../helpers/preview.js'

const VITEPRESS = path.join(REPO_ROOT, 'node_modules/vitepress/bin/vitepress.js')
const PAGES = [
  { path: 'guide/index.md', content: '# Guide\n\nThe guide.\n' },
  { path: 'guide/start.md', content: '---\ndate: 2024-01-03\n---\n\n# Getting started\n\nFirst.\n\n## Further on\n\nMore.\n' },
  { path: 'guide/tools.md', content: '---\ndate: 2024-01-02\n---\n\n# Tom & Jerry <em>tools</em>\n\nSecond.\n' },
  { path: 'guide/deep/one.md', content: '---\ndate: 2024-01-05\n---\n\n# Deep one\n\nNested.\n' },
  { path: 'guide/deep/two.md', content: '---\ndate: 2024-01-04\n---\n\n# Deep two\n\nNested, [[Deep one]].\n' },
  { path: 'notes/n1.md', content: '# A note\n\nElsewhere.\n' },
]

let browser: Browser
let work: string
const sites: Record<'metablog' | 'plain', { origin: string; close: () => void }> = {} as never
const pageErrors: string[] = []

async function writeSite(root: string, config: string, theme?: string): Promise<void> {
  const files: [string, string][] = [...PAGES.map((page): [string, string] => [page.path, page.content]), ['index.md', '---\nlayout: home\n---\n'], ['.vitepress/config.mts', config]]
  if (theme) files.push(['.vitepress/theme/index.ts', theme])
  for (const [file, text] of files) {
    await fs.mkdir(path.dirname(path.join(root, file)), { recursive: true })
    await fs.writeFile(path.join(root, file), text)
  }
  await promisify(execFile)(process.execPath, [VITEPRESS, 'build', root], { cwd: REPO_ROOT })
}

/** The sidebar's markup for what the browser made of it (see canonicalMarkup): both sites' styles hash alike, their folders being at one depth. */
function sidebarMarkup(page: Page): Promise<string> {
  return page.locator('.VPSidebar nav').evaluate((nav) => nav.outerHTML).then(canonicalMarkup)
}

/** Opens the same route on both sites, once each is hydrated (the theme marks the current page only then). */
async function openBoth(pages: Record<'metablog' | 'plain', Page>, route: string): Promise<void> {
  for (const [name, page] of Object.entries(pages) as ['metablog' | 'plain', Page][]) {
    await page.goto(`${sites[name].origin}${route}`)
    await page.locator('.VPSidebar .VPSidebarItem.is-active').waitFor()
    // The default theme's group turns its transitions on 300 ms after it mounts.
    await page.locator('.VPSidebar .group.no-transition').waitFor({ state: 'detached' })
  }
}

async function expectSame(pages: Record<'metablog' | 'plain', Page>, step: string): Promise<string> {
  const [mine, theirs] = [await sidebarMarkup(pages.metablog), await sidebarMarkup(pages.plain)]
  expect(mine, step).toBe(theirs)
  return mine
}

beforeAll(async () => {
  work = await makeTempDir('sidebar-fidelity')
  const sections = KnowledgeIndex.build(PAGES).sidebarSections({ includeDrafts: false })
  const config = (extra: string) => `import { defineConfig } from 'vitepress'\n${extra}`
  await writeSite(
    path.join(work, 'metablog'),
    config("import { withMetaBlog } from 'metablog'\n\nexport default withMetaBlog(defineConfig({ title: 'T', cleanUrls: true }))\n"),
    "import MetaBlogTheme from 'metablog/theme'\n\nexport default MetaBlogTheme\n",
  )
  await writeSite(path.join(work, 'plain'), config(`\nexport default defineConfig({ title: 'T', cleanUrls: true, themeConfig: { sidebar: ${JSON.stringify(sections)} } })\n`))
  sites.metablog = await servePreview(path.join(work, 'metablog/.vitepress/dist'))
  sites.plain = await servePreview(path.join(work, 'plain/.vitepress/dist'))
  browser = await launchBrowser()
}, 240_000)

afterAll(async () => {
  await browser?.close()
  sites.metablog?.close()
  sites.plain?.close()
  if (work) await fs.rm(work, { recursive: true, force: true })
})

describe('the generated sidebar, drawn by MetaBlog', () => {
  it('is served as the built HTML the default theme would render, before any script runs', async () => {
    const still = { metablog: await browser.newPage({ javaScriptEnabled: false }), plain: await browser.newPage({ javaScriptEnabled: false }) }
    try {
      for (const route of ['/guide/deep/two', '/guide/', '/notes/n1']) {
        for (const [name, page] of Object.entries(still) as ['metablog' | 'plain', Page][]) await page.goto(`${sites[name].origin}${route}`)
        const markup = await expectSame(still, `HTML of ${route}`)
        // A title's markup is the page's words, escaped, as the generator gives it.
        if (route.startsWith('/guide/')) expect(markup).toContain('Tom &amp; Jerry &lt;em&gt;tools&lt;/em&gt;')
        // Drawn by MetaBlog's component, not the default theme's: no per-entry slot in its links.
        const raw = (page: Page) => page.locator('.VPSidebar nav').evaluate((nav) => nav.innerHTML)
        const slotted = /<a class="VPLink[^>]*><!--\[-->/
        expect(await raw(still.plain)).toMatch(slotted)
        expect(await raw(still.metablog)).not.toMatch(slotted)
      }
    } finally {
      await Promise.all(Object.values(still).map((page) => page.close()))
    }
  })

  it('marks the current page, folds and unfolds by mouse and keyboard, and follows the router, as the default theme does', async () => {
    const pages = { metablog: await browser.newPage({ viewport: { width: 1280, height: 900 } }), plain: await browser.newPage({ viewport: { width: 1280, height: 900 } }) }
    // A hydration mismatch is only a console error in a production build (Vue mends the DOM): any counts.
    for (const page of Object.values(pages)) {
      page.on('pageerror', (error) => pageErrors.push(String(error)))
      page.on('console', (message) => message.type() === 'error' && pageErrors.push(message.text()))
    }
    const both = async (act: (page: Page) => Promise<unknown>) => {
      for (const page of Object.values(pages)) await act(page)
    }
    try {
      await openBoth(pages, '/guide/deep/two')
      const start = await expectSame(pages, 'hydrated on a nested page')
      expect(start).toMatch(/class="VPSidebarItem has-active is-active is-link level-2"/)
      // A group without a page of its own folds when its header is clicked, and unfolds with Enter.
      await both((page) => page.locator('.VPSidebarItem.level-1 > .item[role="button"]').first().click())
      expect(await expectSame(pages, 'after folding "deep" by its header')).toContain('collapsed')
      await both(async (page) => {
        await page.locator('.VPSidebarItem.level-1 > .item[role="button"]').first().focus()
        await page.keyboard.press('Enter')
      })
      expect(await expectSame(pages, 'after unfolding it with Enter')).not.toContain('collapsed')
      // A group with a page of its own (the folder's index) folds by its caret, by mouse and by keyboard.
      await both((page) => page.locator('.VPSidebarItem.level-0 > .item > .caret').click())
      expect(await expectSame(pages, 'after folding "Guide" by its caret')).toMatch(/class="[^"]*collapsed[^"]*level-0"/)
      await both(async (page) => {
        await page.locator('.VPSidebarItem.level-0 > .item > .caret').focus()
        await page.keyboard.press('Enter')
      })
      await expectSame(pages, 'after unfolding it with Enter on the caret')
      // The router moves the current page without a reload; what was folded before is as the theme leaves it.
      await both((page) => page.locator('.VPSidebarItem.level-1 > .item[role="button"]').first().click())
      await both(async (page) => {
        await page.locator('.VPSidebar a[href="/guide/start"]').click()
        await page.waitForURL((url) => url.pathname === '/guide/start')
        await page.locator('.VPSidebar .VPSidebarItem.is-active a[href="/guide/start"]').waitFor()
      })
      expect(await expectSame(pages, 'after following a sidebar link')).toMatch(/is-active is-link level-1/)
      // Folded, then a new hash on the same page (the outline): it stays folded in both.
      await both((page) => page.locator('.VPSidebarItem.level-0 > .item > .caret').click())
      await both(async (page) => {
        await page.locator('.VPDocAsideOutline a[href="#further-on"]').click()
        await page.waitForURL((url) => url.hash === '#further-on')
      })
      expect(await expectSame(pages, 'after a new hash with "Guide" folded')).toMatch(/class="[^"]*collapsed[^"]*level-0"/)
      // The pager leads to the next page, as the router does.
      await both(async (page) => {
        const next = page.locator('.VPDocFooter .pager-link.next')
        const href = await next.getAttribute('href')
        await next.click()
        // The URL changes before the next page is drawn: wait for its own entry to be the active one.
        await page.locator(`.VPSidebar .VPSidebarItem.is-active a[href="${href}"]`).waitFor({ state: 'attached' })
      })
      await expectSame(pages, 'after the pager')
      expect(pageErrors).toEqual([])
    } finally {
      await Promise.all(Object.values(pages).map((page) => page.close()))
    }
  })
})
