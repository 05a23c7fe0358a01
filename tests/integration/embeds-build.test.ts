import fs from 'node:fs/promises'
import path from 'node:path'
import { build } from 'vitepress'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { copySite, REPO_ROOT } from '../helpers/dev-server.js'

const VAULT = path.join(REPO_ROOT, 'tests/fixtures/vault')

let root: string
let outDir: string
/** Every built page: its URL path ('/Bases/Views.html') and HTML. */
let pages: Map<string, string>
/** The vault's attachment files by content (base64): what an embed shows must be one of them, byte for byte. */
let vaultFiles: Map<string, string>

const ATTRIBUTE_ENTITIES: Record<string, string> = { '&amp;': '&', '&quot;': '"', '&#39;': "'", '&lt;': '<', '&gt;': '>' }
const unescape = (value: string) => value.replace(/&(?:amp|quot|#39|lt|gt);/g, (entity) => ATTRIBUTE_ENTITIES[entity]!)
const attribute = (tag: string, name: string) => {
  const found = new RegExp(`\\s${name}="([^"]*)"`).exec(tag)
  return found ? unescape(found[1]!) : null
}
/** The page content VitePress rendered from Markdown (the layout around it carries its own links). */
const content = (html: string) => /<main class="main"[\s\S]*?<\/main>/.exec(html)?.[0] ?? ''
const ids = (html: string) => new Set([...html.matchAll(/\sid="([^"]*)"/g)].map((match) => unescape(match[1]!)))

/** The bytes an embed's `src` points at in the output; null when no such file was shipped. */
async function embeddedBytes(source: string, pageUrl: string): Promise<Buffer | null> {
  const file = path.join(outDir, decodeURIComponent(new URL(source, `http://vault${pageUrl}`).pathname))
  return fs.readFile(file).catch(() => null)
}

beforeAll(async () => {
  root = await copySite(VAULT)
  await build(root)
  outDir = path.join(root, '.vitepress/dist')
  const attachments = ((await fs.readdir(path.join(VAULT, 'Attachments'), { recursive: true })) as string[]).map((name) => path.join(VAULT, 'Attachments', name))
  vaultFiles = new Map()
  for (const file of attachments) if ((await fs.stat(file)).isFile()) vaultFiles.set((await fs.readFile(file)).toString('base64'), path.relative(VAULT, file).split(path.sep).join('/'))
  const names = (await fs.readdir(outDir, { recursive: true })) as string[]
  pages = new Map(
    await Promise.all(
      names
        .filter((name) => name.endsWith('.html') && name !== '404.html')
        .map(async (name): Promise<[string, string]> => [`/${name.split(path.sep).join('/')}`, await fs.readFile(path.join(outDir, name), 'utf8')]),
    ),
  )
}, 240_000)

afterAll(async () => {
  await fs.rm(root, { recursive: true, force: true })
})

describe('vitepress build of an Obsidian-shaped vault', () => {
  it('builds every page, with attachments found by name anywhere in the site', async () => {
    expect([...pages.keys()].sort()).toEqual(['/Bases/Introduction to Bases.html', '/Bases/Views.html', '/Notes/Daily/2024-01-01.html', '/Notes/Headings.html', '/index.html'])
    const intro = content(pages.get('/Bases/Introduction to Bases.html')!)
    const embedded = async (alt: string) => {
      const tag = new RegExp(`<img [^>]*alt="${alt.replace(/[.]/g, '\\.')}"[^>]*>`).exec(intro)?.[0] ?? ''
      const bytes = await embeddedBytes(attribute(tag, 'src') ?? '', '/Bases/Introduction to Bases.html')
      return { tag, file: bytes && vaultFiles.get(bytes.toString('base64')) }
    }
    // Shortest path wins: Attachments/bases-noshadow.png, not Attachments/old/bases-noshadow.png.
    expect((await embedded('bases-noshadow.png')).file).toBe('Attachments/bases-noshadow.png')
    const sized = await embedded('Bases without shadow')
    expect(sized).toMatchObject({ file: 'Attachments/bases-noshadow.png' })
    expect(sized.tag).toMatch(/ width="300" height="200"/)
    expect((await embedded('lucide-table.svg')).file).toBe('Attachments/icons/lucide-table.svg')
    expect((await embedded('Screenshot 2024-01-01 at 10.00.png')).file).toBe('Attachments/Screenshot 2024-01-01 at 10.00.png')
    expect(intro).toMatch(/<iframe [^>]*src="\/Attachments\/bases-guide\.pdf#page=1"/)
    // A quote in a name is %-encoded: it never reaches a module or an attribute as written.
    expect(content(pages.get('/Notes/Daily/2024-01-01.html')!)).toContain('src="/Attachments/Bob%27s%20%E5%9B%BE%E8%A1%A8%20%281%29.png"')
  })

  it('resolves every wiki-link to a built page, every # to an element id, every embed to a shipped file; the missing attachment is a marker', async () => {
    const links = { resolved: 0, total: 0 }
    const anchors = { resolved: 0, total: 0 }
    const embeds = { resolved: 0, total: 0 }
    const problems: string[] = []
    for (const [url, html] of pages) {
      const main = content(html)
      for (const [tag] of main.matchAll(/<a [^>]*class="metablog-link[^"]*"[^>]*>/g)) {
        const href = attribute(tag, 'href')
        const file = (attribute(tag, 'class') ?? '').includes('metablog-link--file')
        if (file) embeds.total++
        else links.total++
        if (href === null) {
          if (!tag.includes('metablog-link--unresolved')) problems.push(`${url}: a link with no href and no marker: ${tag}`)
          continue
        }
        const target = new URL(href, `http://vault${url}`)
        const targetPath = decodeURIComponent(target.pathname)
        if (file) {
          if (await fs.stat(path.join(outDir, targetPath)).then(() => true, () => false)) embeds.resolved++
          else problems.push(`${url}: ${href} is not in the output`)
          continue
        }
        const page = pages.get(targetPath)
        if (!page) {
          problems.push(`${url}: ${href} reaches no built page`)
          continue
        }
        links.resolved++
        if (!target.hash) continue
        anchors.total++
        if (ids(content(page)).has(decodeURIComponent(target.hash.slice(1)))) anchors.resolved++
        else problems.push(`${url}: ${href} reaches no element id on ${targetPath}`)
      }
      for (const [tag] of main.matchAll(/<(?:img|iframe|audio|video) [^>]*class="metablog-embed[^"]*"[^>]*>/g)) {
        embeds.total++
        const source = attribute(tag, 'src') ?? ''
        // A file of its own, never an import Vite inlined or renamed.
        if (!source.startsWith('/Attachments/')) problems.push(`${url}: embed src ${source.slice(0, 60)} is not the attachment's own path`)
        const bytes = await embeddedBytes(source, url)
        if (bytes && vaultFiles.has(bytes.toString('base64'))) embeds.resolved++
        else problems.push(`${url}: embed ${source.slice(0, 80)} is not in the output, or not a vault file`)
      }
    }
    console.log(
      `[vault] links ${links.resolved}/${links.total} resolved, anchors ${anchors.resolved}/${anchors.total}, embeds ${embeds.resolved}/${embeds.total}`,
    )
    expect(problems).toEqual([])
    // The one missing attachment, and nothing else, is unresolved.
    expect(embeds.total - embeds.resolved).toBe(1)
    expect(links.resolved).toBe(links.total)
    expect(anchors.total).toBeGreaterThanOrEqual(14)
    expect(embeds.resolved).toBeGreaterThanOrEqual(14)
    const intro = content(pages.get('/Bases/Introduction to Bases.html')!)
    expect(intro).toMatch(/<a [^>]*class="metablog-link metablog-link--file metablog-link--unresolved metablog-embed" title="No attachment named “missing-chart\.png” yet" data-target="missing-chart\.png">missing-chart\.png<\/a>/)
  })

  it('ships only the attachments pages link to, at their own paths, byte for byte', async () => {
    const shipped = ((await fs.readdir(path.join(outDir, 'Attachments'), { recursive: true })) as string[]).map((name) => name.split(path.sep).join('/')).sort()
    expect(shipped).toEqual(["Bob's 图表 (1).png", 'Screenshot 2024-01-01 at 10.00.png', 'bases-guide.pdf', 'bases-noshadow.png', 'diagram.svg', 'icons', 'icons/lucide-list.svg', 'icons/lucide-table.svg'])
    const source = await fs.readFile(path.join(VAULT, 'Attachments/bases-noshadow.png'))
    expect((await fs.readFile(path.join(outDir, 'Attachments/bases-noshadow.png'))).equals(source)).toBe(true)
    await expect(fs.stat(path.join(outDir, '.obsidian'))).rejects.toThrow()
  })

  it('gives heading links VitePress’s own ids, de-duplicated, and block references their paragraph', () => {
    const notes = content(pages.get('/Notes/Headings.html')!)
    const views = content(pages.get('/Bases/Views.html')!)
    expect(notes).toContain('href="/Bases/Views.html#views"')
    expect(notes).toContain('href="/Bases/Views.html#what-s-new-v1-2"')
    expect(notes).toContain('href="/Bases/Views.html#_1-numbered-first"')
    expect(notes).toContain('href="#duplicate"')
    expect(notes).toContain('href="#duplicate-2"')
    expect(views).toMatch(/<h2 id="views-2"/)
    expect(views).toContain('href="#views"')
    expect(views).toContain('href="#表格视图"')
    // Block ids: on the paragraph, the table before a lone `^id`, the tight list item; the marker text hidden.
    expect(content(pages.get('/Bases/Introduction to Bases.html')!)).toMatch(/<p id="\^intro-summary">Bases keep every property in front matter, so a view is a query over notes\.<\/p>/)
    expect(views).toMatch(/<table id="\^views-table"/)
    expect(views).toMatch(/<li id="\^cards-item">Cards show the first image of each note\.<\/li>/)
    expect(views).not.toMatch(/\^views-table<|\^cards-item</)
    expect(notes).toContain('href="/Bases/Views.html#^views-table"')
  })
})
