// `vitepress build` of a blog with a small folder and a 300-post folder: the small one's sidebar is what
// VitePress renders for the same section written by hand; a post of the big one holds a window of it,
// and its "More" asset lists every post.
import { execFile } from 'node:child_process'
import fs from 'node:fs/promises'
import path from 'node:path'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { pageKnowledgeOf } from '../../plugin/protocol.js'
import { SIDEBAR_WINDOW } from '../../server/knowledge/sidebar-window.js'
import { makeTempDir, REPO_ROOT } from '../helpers/dev-server.js'
import { canonicalMarkup } from '../helpers/markup.js'
import { pageDataOfChunk } from '../helpers/page-data.js'

const VITEPRESS = path.join(REPO_ROOT, 'node_modules/vitepress/bin/vitepress.js')
const POSTS = 300
const day = (index: number) => new Date(Date.UTC(2020, 0, 1) + index * 86_400_000).toISOString().slice(0, 10)

/** The small folder's section as an author would write it by hand: what MetaBlog generated before windowing. */
const SMALL_SECTION = [
  {
    text: 'Small things',
    link: '/small/',
    collapsed: false,
    items: [
      { text: 'Gamma 伽马', link: '/small/gamma' },
      { text: 'Beta', link: '/small/beta' },
      { text: 'Alpha', link: '/small/alpha' },
    ],
  },
]

let work: string
const roots = { metablog: '', vanilla: '' }
const dist = (root: string, file: string) => path.join(root, '.vitepress/dist', file)

async function write(root: string, file: string, text: string): Promise<void> {
  await fs.mkdir(path.dirname(path.join(root, file)), { recursive: true })
  await fs.writeFile(path.join(root, file), text)
}

async function writeSmallFolder(root: string): Promise<void> {
  await write(root, 'index.md', '---\nlayout: home\n---\n')
  await write(root, 'small/index.md', '# Small things\n')
  const small = [['alpha', 'Alpha', '2026-01-01'], ['beta', 'Beta', '2026-01-02'], ['gamma', 'Gamma 伽马', '2026-01-03']]
  for (const [name, title, date] of small) await write(root, `small/${name}.md`, `---\ndate: ${date}\n---\n\n# ${title}\n\nText.\n`)
}

beforeAll(async () => {
  work = await makeTempDir('sidebar-build')
  roots.metablog = path.join(work, 'metablog')
  roots.vanilla = path.join(work, 'vanilla')
  for (const root of Object.values(roots)) await writeSmallFolder(root)
  for (let index = 0; index < POSTS; index++) await write(roots.metablog, `posts/p${index}.md`, `---\ndate: ${day(index)}\n---\n\n# Post ${index}\n\nText.\n`)
  await write(roots.metablog, '.vitepress/config.mts', "import { defineConfig } from 'vitepress'\nimport { withMetaBlog } from 'metablog'\n\nexport default withMetaBlog(defineConfig({ title: 'T', cleanUrls: true }))\n")
  await write(roots.metablog, '.vitepress/theme/index.ts', "import MetaBlogTheme from 'metablog/theme'\n\nexport default MetaBlogTheme\n")
  await write(roots.vanilla, '.vitepress/config.mts', `import { defineConfig } from 'vitepress'\n\nexport default defineConfig({ title: 'T', cleanUrls: true, themeConfig: { sidebar: { '/small/': ${JSON.stringify(SMALL_SECTION)} } } })\n`)
  const build = (root: string) => promisify(execFile)(process.execPath, [VITEPRESS, 'build', root], { cwd: REPO_ROOT, maxBuffer: 16 * 1024 * 1024 })
  await Promise.all([build(roots.metablog), build(roots.vanilla)])
}, 300_000)

afterAll(async () => {
  if (work) await fs.rm(work, { recursive: true, force: true })
})

const read = (root: string, file: string) => fs.readFile(dist(root, file), 'utf8')
/** The sidebar and the pager of a page, as rendered, for what a browser makes of them (see canonicalMarkup). */
const sidebarHtml = (html: string) => canonicalMarkup(/<aside class="VPSidebar[\s\S]*?<\/aside>/.exec(html)?.[0] ?? '')
const pagerHtml = (html: string) => canonicalMarkup(/<footer class="VPDocFooter[\s\S]*?<\/footer>/.exec(html)?.[0] ?? '')
const sidebarLinks = (html: string) => [...sidebarHtml(html).matchAll(/<a class="VPLink[^"]*"[^>]* href="([^"]+)"/g)].map((match) => match[1]!)

describe('the windowed sidebar in a build', () => {
  it('renders a small folder exactly as VitePress renders the same section written by hand', async () => {
    for (const page of ['small/alpha.html', 'small/gamma.html', 'small/index.html']) {
      const [ours, theirs] = await Promise.all([read(roots.metablog, page), read(roots.vanilla, page)])
      expect(sidebarHtml(ours), page).toContain('Gamma 伽马')
      expect(sidebarHtml(ours), page).toBe(sidebarHtml(theirs))
      expect(pagerHtml(ours), page).toBe(pagerHtml(theirs))
    }
  })

  it("gives a post of a 300-post folder a window of it: the newest, itself and its neighbours, and More", async () => {
    const html = await read(roots.metablog, 'posts/p150.html')
    const links = sidebarLinks(html)
    expect(links.length).toBeLessThanOrEqual(SIDEBAR_WINDOW + 3)
    expect(links.slice(0, 3)).toEqual(['/posts/p299', '/posts/p298', '/posts/p297'])
    expect(links).toEqual(expect.arrayContaining(['/posts/p151', '/posts/p150', '/posts/p149']))
    expect(sidebarHtml(html)).toContain(`More (${POSTS - SIDEBAR_WINDOW - 3})…`)
    // The pager leads to the true neighbours in the folder's order.
    expect(pagerHtml(html)).toMatch(/href="\/posts\/p151"[\s\S]*href="\/posts\/p149"/)
    // Nothing of the sidebar in the site data every page inlines.
    expect(/__VP_SITE_DATA__=JSON\.parse\((.*?)\);?<\/script>/s.exec(html)?.[1] ?? '').not.toContain('sidebar')
  })

  it("carries the page's window in its own data packed: links relative to the section, each More by its parts", async () => {
    const chunk = (await fs.readdir(dist(roots.metablog, 'assets'))).find((name) => /^posts_p150\.md\.[\w-]+\.lean\.js$/.test(name))
    const code = await read(roots.metablog, `assets/${chunk}`)
    const data = pageDataOfChunk(code, chunk)
    // One string without double quotes, which Vue's compiler would keep as pieces (see shipPageKnowledge).
    expect(typeof data.metablog).toBe('string')
    expect(data.metablog).not.toContain('"')
    const sidebar = JSON.stringify(pageKnowledgeOf(data)?.sidebar)
    expect(sidebar).toContain('["/posts/",')
    expect(sidebar).toContain('["Post 299","p299"]')
    expect(sidebar).not.toContain('"link":"/posts/p')
    // The More entry's markup is made in the page from its words, folder and source.
    expect(code).not.toContain('metablog-sidebar-more')
  })

  it('ships the folder\'s full list as a JSON asset "More" loads, listing every post once', async () => {
    const html = await read(roots.metablog, 'posts/p150.html')
    const src = /data-src="([^"]+)"/.exec(html)?.[1]
    expect(src).toMatch(/^\/assets\/metablog-sidebar\.[\w-]+\.json$/)
    const entries = JSON.parse(await read(roots.metablog, src!.slice(1))) as [string, string][]
    expect(entries).toHaveLength(POSTS)
    expect(new Set(entries.map(([, link]) => link))).toEqual(new Set(Array.from({ length: POSTS }, (_, index) => `/posts/p${index}`)))
    expect(entries[0]).toEqual(['Post 299', '/posts/p299'])
    // One asset per long folder: the whole site's lists are O(pages), not O(pages) per page.
    const assets = (await fs.readdir(dist(roots.metablog, 'assets'))).filter((name) => name.startsWith('metablog-sidebar.'))
    expect(assets).toHaveLength(1)
  })
})
