// The package as a stranger gets it: `npm pack`, unpacked into two blogs written for this test, then
// type-checked, built against a build without MetaBlog, and opened in dev in Chromium.
import fs from 'node:fs/promises'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ADOPT_SITES as SITES, adoptPage, makeAdoptWorkspace, run, VITEPRESS, type AdoptSite as Site, type AdoptWorkspace } from '../helpers/adopt-sites.js'
import { launchBrowser } from '../helpers/browser.js'
import { freePort, startDevServerProcess } from '../helpers/dev-server-process.js'
import { REPO_ROOT } from '../helpers/dev-server.js'

const VUE_TSC = path.join(REPO_ROOT, 'node_modules/.bin/vue-tsc')

let work: string
let packed: string[]
let roots: AdoptWorkspace['roots']

beforeAll(async () => {
  // `npm test` builds dist first.
  ;({ work, packed, roots } = await makeAdoptWorkspace())
}, 120_000)

afterAll(async () => {
  if (work) await fs.rm(work, { recursive: true, force: true })
})

describe('the packed tarball', () => {
  it('holds compiled JS, .d.ts and source maps for every entry, a LICENSE and the README, and no sources or tests', async () => {
    for (const entry of ['dist/plugin/index', 'dist/client/index', 'dist/client/theme/index', 'dist/client/enhance-app']) {
      expect(packed).toEqual(expect.arrayContaining([`${entry}.js`, `${entry}.d.ts`, `${entry}.js.map`]))
    }
    expect(packed).toEqual(expect.arrayContaining(['LICENSE', 'README.md', 'package.json', 'dist/client/components/AIChatOrb.vue']))
    expect(packed.filter((file) => file.endsWith('.ts') && !file.endsWith('.d.ts'))).toEqual([])
    expect(packed.filter((file) => /(^|\/)tests?\//.test(file) || file.endsWith('.test.js'))).toEqual([])
    const manifest = JSON.parse(await fs.readFile(path.join(roots['adopt-zh'].site, 'node_modules/metablog/package.json'), 'utf8'))
    expect(Object.keys(manifest.scripts ?? {}).filter((name) => /^(pre|post)?(install|prepare)$/.test(name))).toEqual([])
    for (const target of Object.values(manifest.exports as Record<string, string | Record<string, string>>).flatMap((value) => (typeof value === 'string' ? [value] : Object.values(value)))) {
      expect(packed, target).toContain(target.replace(/^\.\//, ''))
    }
  })
})

describe.each(SITES)('%s with the tarball installed', (site) => {
  it('type-checks under a strict NodeNext tsconfig and a bundler tsconfig without Node types, with no error inside metablog', async () => {
    // With libraries checked too: VitePress's own types (and @vueuse's) report a few errors in any blog; none may come from the site or from ours.
    const checks = ['tsconfig.nodenext.json', 'tsconfig.bundler.json'].map(async (config) => {
      const result = await run(VUE_TSC, ['-p', config, '--skipLibCheck', 'false'], { cwd: roots[site].site }).catch((error: { stdout: string }) => error)
      const files = result.stdout.split('\n').filter((line) => /error TS/.test(line)).map((line) => line.slice(0, line.indexOf('(')))
      expect(files.filter((file) => !/node_modules\/(vitepress|@vueuse)\//.test(file)), config).toEqual([])
    })
    await Promise.all(checks)
    // Two full type-checks with the libraries side by side: well over two minutes on a loaded 2-core machine.
  }, 300_000)
})

/** A page's HTML without what differs by build (asset hashes, scripts, preloads) or by Vue's invisible fragment markers. */
function visibleHtml(html: string): string {
  return html
    .replace(/<script[^>]*>[\s\S]*?<\/script>/g, '')
    // Asset links differ by hash; the stylesheet also by MetaBlog's own small CSS (a documented addition).
    .replace(/<link rel="[^"]*(?:modulepreload|preload|stylesheet)[^"]*"[^>]*>/g, '')
    // MetaBlog's components come compiled for the browser, so the server renders a hidden block's placeholder as `<!--v-if-->`.
    .replace(/<!--\[-->|<!--\]-->|<!---->|<!--v-if-->/g, '')
    // Shiki's token colours for the same code differed once between two builds (not reproducible): code compares as text.
    .replace(/<pre class="shiki[\s\S]*?<\/pre>/g, (pre) => pre.replace(/<span[^>]*>|<\/span>/g, ''))
}

function siteData(html: string): Record<string, unknown> {
  const found = /window\.__VP_SITE_DATA__=JSON\.parse\(("(?:[^"\\]|\\.)*")\)/.exec(html)
  return JSON.parse(JSON.parse(found![1]!)) as Record<string, unknown>
}

async function builtPages(root: string): Promise<Map<string, string>> {
  const dist = path.join(root, '.vitepress/dist')
  const names = ((await fs.readdir(dist, { recursive: true })) as string[]).filter((name) => name.endsWith('.html'))
  return new Map(await Promise.all(names.map(async (name) => [name, await fs.readFile(path.join(dist, name), 'utf8')] as const)))
}

describe('vitepress build, every option at its default', () => {
  const pages = {} as Record<Site, { site: Map<string, string>; vanilla: Map<string, string> }>

  beforeAll(async () => {
    // Two builds at a time: the machine has two cores.
    for (const site of SITES) {
      await Promise.all([run(process.execPath, [VITEPRESS, 'build', roots[site].site], { cwd: REPO_ROOT }), run(process.execPath, [VITEPRESS, 'build', roots[site].vanilla], { cwd: REPO_ROOT })])
      pages[site] = { site: await builtPages(roots[site].site), vanilla: await builtPages(roots[site].vanilla) }
    }
  }, 240_000)

  it('a custom Layout: every page is the vanilla build’s, and no default-theme CSS or fonts come along', async () => {
    const { site, vanilla } = pages['adopt-custom-layout']
    expect([...site.keys()].sort()).toEqual([...vanilla.keys()].sort())
    for (const [name, html] of site) {
      expect(visibleHtml(html), name).toBe(visibleHtml(vanilla.get(name)!))
      // The generated sidebar travels in each page's own data, never in the site data every page inlines.
      expect(siteData(html), name).toEqual(siteData(vanilla.get(name)!))
    }
    const assets = (await fs.readdir(path.join(roots['adopt-custom-layout'].site, '.vitepress/dist/assets'), { recursive: true })) as string[]
    expect(assets.filter((name) => name.endsWith('.woff2'))).toEqual([])
    for (const name of assets.filter((file) => file.endsWith('.css'))) {
      expect(await fs.readFile(path.join(roots['adopt-custom-layout'].site, '.vitepress/dist/assets', name), 'utf8')).not.toMatch(/Inter|\.VPDoc|\.VPNav/)
    }
  })

  it('a Chinese default-theme blog: its own sidebar kept, only linked pages gain backlinks, in Chinese, outside the outline', () => {
    const { site, vanilla } = pages['adopt-zh']
    expect([...site.keys()].sort()).toEqual([...vanilla.keys()].sort())
    const backlinks = /<section class="metablog-backlinks[\s\S]*?<\/section>/
    for (const [name, html] of site) {
      // Documented addition: the backlinks block, on pages another page links to.
      const added = backlinks.exec(html)?.[0]
      expect(visibleHtml(html.replace(backlinks, '')), name).toBe(visibleHtml(vanilla.get(name)!))
      expect(siteData(html), name).toEqual(siteData(vanilla.get(name)!))
      expect(added === undefined, name).toBe(name !== 'posts/shell-tips.html')
    }
    const block = backlinks.exec(site.get('posts/shell-tips.html')!)![0]
    expect(block).toContain('链接到此页的页面')
    expect(block).toContain('安装与配置')
    expect(block).not.toMatch(/<h[1-6]/)
    expect(block).not.toContain('No other page links here')
  })
})

describe('vitepress dev with the tarball installed', () => {
  it.each(SITES)('%s: Chromium finds the orb, mounted without any layout slot, and /summarize summarizes the page', async (site) => {
    // No model: the summary is the extractive one, whatever the machine's environment holds.
    const env = { OPENAI_API_KEY: '', OPENAI_BASE_URL: '', METABLOG_MODEL: '', METABLOG_PROVIDER: '' }
    const server = await startDevServerProcess({ root: roots[site].site, port: await freePort(), env })
    const browser = await launchBrowser()
    try {
      const page = await browser.newPage()
      await page.goto(`${server.origin}${adoptPage(site)}`)
      await page.getByTestId('metablog-orb').waitFor({ timeout: 60_000 })
      expect(await page.locator('#metablog-assistant [data-testid="metablog-orb"]').count()).toBe(1)
      await page.getByTestId('metablog-orb').click()
      const input = page.getByRole('textbox', { name: 'Message MetaBlog' })
      // As an author types it: the command is complete, so the first Enter sends it.
      await input.fill('/summarize')
      await input.press('Enter')
      await expect.poll(() => input.inputValue()).toBe('')
      const sentence = site === 'adopt-zh' ? '运行开发服务器即可在浏览器里预览整个博客' : 'Some text, a link back home, and code'
      const summary = page.getByTestId('metablog-message').filter({ hasText: 'Extractive summary' })
      await summary.filter({ hasText: sentence }).waitFor({ timeout: 60_000 })
      expect(await summary.count()).toBe(1)
      expect(await page.getByTestId('metablog-panel').innerText()).not.toContain('no prose to pick sentences from')
    } finally {
      await browser.close()
      await server.kill()
    }
  }, 150_000)
})
