import path from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import { createMarkdownRenderer, disposeMdItInstance, type MarkdownRenderer } from 'vitepress'
import { wikiLinkPlugin, type WikiLinkOptions } from '../../../../plugin/markdown/wiki-link-rule.js'
import { KnowledgeIndex } from '../../../../server/knowledge/knowledge-index.js'
import { slugify } from '../../../../server/knowledge/slug.js'
import { copySite, REPO_ROOT } from '../../../helpers/dev-server.js'

const SITE = KnowledgeIndex.build([
  { path: 'index.md', content: '# Home\n' },
  { path: 'posts/index.md', content: '---\ntitle: Posts\n---\n' },
  { path: 'posts/atomic-file-writes.md', content: '---\ntitle: Atomic file writes in Node.js\n---\n' },
  { path: 'posts/a & b.md', content: '---\ntitle: "A <b>bold</b> title"\n---\n' },
  { path: 'zh/知识图谱.md', content: '# 关于知识图谱\n' },
  { path: 'posts/template.md', content: "---\ntitle: \"{{ constructor.constructor('globalThis.pwned = 1')() }}\"\naliases: ['{{ alias }}']\n---\n" },
])

const calls: { target: string; fromPath: string }[] = []
const resolve: WikiLinkOptions['resolve'] = (target, fromPath) => {
  calls.push({ target, fromPath })
  return SITE.resolve(target, fromPath)
}

/** A fresh VitePress renderer: VitePress caches its markdown-it instance, so drop the cached one first. */
async function vitepressRenderer(srcDir = REPO_ROOT): Promise<MarkdownRenderer> {
  disposeMdItInstance()
  return createMarkdownRenderer(srcDir)
}

async function renderer(options: Partial<WikiLinkOptions> = {}): Promise<MarkdownRenderer> {
  const md = await vitepressRenderer()
  md.use(wikiLinkPlugin, { resolve, ...options })
  return md
}

// Each new VitePress renderer disposes the previous one's highlighter, so the main one is made last.
let forcedHtmlUrls: MarkdownRenderer
let withBase: MarkdownRenderer
let md: MarkdownRenderer
const render = (source: string, env: Record<string, unknown> = {}) =>
  md.render(source, { relativePath: 'posts/current.md', cleanUrls: true, ...env }).trim()

beforeAll(async () => {
  forcedHtmlUrls = await renderer({ cleanUrls: false })
  withBase = await renderer({ base: '/blog' })
  md = await renderer()
})

describe('wikiLinkPlugin: links', () => {
  it('renders a resolved link as a site route, the text as written', () => {
    expect(render('[[atomic-file-writes]]')).toBe('<p><a v-pre="" href="/posts/atomic-file-writes" class="metablog-link">atomic-file-writes</a></p>')
  })

  it('passes the target and the current page to the resolver', () => {
    calls.length = 0
    render('[[zh/知识图谱#标题|图谱]]', { relativePath: 'notes/x.md' })
    expect(calls).toEqual([{ target: 'zh/知识图谱', fromPath: 'notes/x.md' }])
  })

  it('follows cleanUrls from VitePress, or the option', () => {
    expect(render('[[atomic-file-writes]]', { cleanUrls: false })).toContain('href="/posts/atomic-file-writes.html"')
    expect(forcedHtmlUrls.render('[[atomic-file-writes]]', { relativePath: 'a.md', cleanUrls: true })).toContain('href="/posts/atomic-file-writes.html"')
  })

  it('links folder indexes to the folder route and respects the base', () => {
    const html = withBase.render('[[Posts]] [[Home]] [[atomic-file-writes]]', { relativePath: 'a.md', cleanUrls: true })
    expect(html).toContain('href="/blog/posts/"')
    expect(html).toContain('href="/blog/"')
    expect(html).toContain('href="/blog/posts/atomic-file-writes"')
  })

  it('adds the heading anchor VitePress gives the heading, and shows "page › heading"', () => {
    expect(render('[[atomic-file-writes#Why rename is atomic?]]')).toContain(
      'href="/posts/atomic-file-writes#why-rename-is-atomic" class="metablog-link">atomic-file-writes › Why rename is atomic?</a>',
    )
    expect(render('[[#Parsing the stream]]')).toBe('<p><a v-pre="" href="#parsing-the-stream" class="metablog-link">Parsing the stream</a></p>')
    expect(render('[[知识图谱#什么是双向链接]]')).toContain('href="/zh/知识图谱#什么是双向链接"')
  })

  it('renders the label as Markdown', () => {
    expect(render('[[atomic-file-writes|*atomic* `writes`]]')).toBe(
      '<p><a v-pre="" href="/posts/atomic-file-writes" class="metablog-link"><em>atomic</em> <code>writes</code></a></p>',
    )
  })

  it('escapes special characters in paths', () => {
    expect(render('[[a & b]]')).toContain('href="/posts/a%20&amp;%20b"')
  })
})

describe('wikiLinkPlugin: unresolved links', () => {
  it('marks them visibly, without an href', () => {
    expect(render('[[Future post about CRDTs]]')).toBe(
      '<p><a v-pre="" class="metablog-link metablog-link--unresolved" title="No page named “Future post about CRDTs” yet" data-target="Future post about CRDTs">Future post about CRDTs</a></p>',
    )
  })

  it('escapes what the author typed', () => {
    const html = render('[[<img src=x onerror=alert(1)>]]')
    expect(html).not.toContain('<img')
    expect(html).toContain('data-target="&lt;img src=x onerror=alert(1)&gt;"')
  })
})

describe('wikiLinkPlugin: embeds', () => {
  it('renders a page embed as a link block with the page title, escaped', () => {
    expect(render('![[atomic-file-writes]]')).toBe(
      '<p><a v-pre="" href="/posts/atomic-file-writes" class="metablog-link metablog-embed">Atomic file writes in Node.js</a></p>',
    )
    expect(render('![[a & b]]')).toContain('>A &lt;b&gt;bold&lt;/b&gt; title</a>')
  })

  it('renders image embeds as images beside the page or from the site root, with a size', () => {
    expect(render('![[diagram.png]]')).toBe('<p><img src="./diagram.png" alt="diagram.png" class="metablog-embed-image"></p>')
    expect(render('![[assets/photo 1.jpg|300x200]]')).toBe(
      '<p><img src="../assets/photo%201.jpg" alt="photo 1.jpg" class="metablog-embed-image" width="300" height="200"></p>',
    )
    expect(render('![[chart.svg|A "quoted" caption]]')).toContain('alt="A &quot;quoted&quot; caption"')
  })

  it('renders other attachments as file links', () => {
    expect(render('![[slides.pdf]]')).toBe('<p><a v-pre="" href="./slides.pdf" class="metablog-link metablog-link--file">slides.pdf</a></p>')
  })

  it('marks an embed of a missing page as unresolved', () => {
    expect(render('![[Nothing here]]')).toContain('class="metablog-link metablog-link--unresolved metablog-embed"')
  })
})

describe('wikiLinkPlugin: nothing it emits is Vue template code', () => {
  const template = "{{ constructor.constructor('globalThis.pwned = 1')() }}"
  const opening = (html: string) => [...html.matchAll(/<a [^>]*>/g)].map((match) => match[0])

  it('marks every anchor v-pre, so a title, label or target with {{ }} stays text', () => {
    for (const source of ['![[template]]', '[[template]]', `[[template|${template}]]`, `[[${template}]]`, `[[{{ alias }}]]`, '![[slides.pdf]]']) {
      const html = render(source)
      expect(opening(html).length, source).toBe(1)
      for (const tag of opening(html)) expect(tag, source).toContain(' v-pre=""')
    }
  })

  it('renders an embedded title with {{ }} as escaped text inside the v-pre anchor', () => {
    const html = render('![[template]]')
    expect(html).toBe(
      `<p><a v-pre="" href="/posts/template" class="metablog-link metablog-embed">{{ constructor.constructor('globalThis.pwned = 1')() }}</a></p>`,
    )
  })
})

describe('wikiLinkPlugin: what is not a link', () => {
  it('leaves inline code and fenced code alone', () => {
    expect(render('`[[atomic-file-writes]]`')).toBe('<p><code>[[atomic-file-writes]]</code></p>')
    expect(render('```md\n[[atomic-file-writes]]\n```')).not.toContain('metablog-link')
  })

  it('reads an escaped pipe inside a table cell', () => {
    const html = render('| a | b |\n| --- | --- |\n| x | [[atomic-file-writes\\|atomic writes]] |')
    expect(html).toContain('<td><a v-pre="" href="/posts/atomic-file-writes" class="metablog-link">atomic writes</a></td>')
  })

  it('reads an escaped pipe outside tables too (other renderers need it)', () => {
    expect(render('[[atomic-file-writes\\|atomic writes]]')).toContain('>atomic writes</a>')
  })

  it('ignores empty brackets, escaped brackets and line breaks', () => {
    expect(render('[[]] [[ ]] \\[[atomic-file-writes]] [[atomic-\nfile]]')).not.toContain('metablog-link')
  })

  it('never nests an anchor inside a link', () => {
    // markdown-it refuses a link whose text holds a link, so the wiki-link wins and the rest is text.
    const html = render('[text with [[atomic-file-writes]] inside](/elsewhere)')
    expect(html).toBe('<p>[text with <a v-pre="" href="/posts/atomic-file-writes" class="metablog-link">atomic-file-writes</a> inside](/elsewhere)</p>')
  })
})

describe('heading anchors match VitePress', () => {
  const headings = ['Parsing the stream', '什么是双向链接', 'Why rename is atomic?', 'ETag & If-Match', '1. Numbered first', 'Émigré café', 'Use `fs.rename()`', 'A -- B']

  it('slugify gives the id VitePress renders for each heading', () => {
    const html = md.render(headings.map((heading) => `## ${heading}`).join('\n\n'), { relativePath: 'a.md' })
    const ids = [...html.matchAll(/<h2 id="([^"]+)"/g)].map((match) => match[1])
    expect(ids).toEqual(headings.map((heading) => slugify(heading.replace(/`/g, ''))))
    expect(ids.slice(0, 2)).toEqual(['parsing-the-stream', '什么是双向链接'])
  })
})

describe('the demo blog renders', () => {
  it('an unresolved marker exactly for each link the index leaves unresolved, [[Future post about CRDTs]] among them', async () => {
    const { readFile, rm } = await import('node:fs/promises')
    // A copy: an author trying the demo may add pages (and unresolved links) to the live folder.
    const demo = await copySite(path.join(REPO_ROOT, 'docs'))
    try {
      const docs = await KnowledgeIndex.load(demo)
      const site = await vitepressRenderer(demo)
      site.use(wikiLinkPlugin, { resolve: (target: string, fromPath: string) => docs.resolve(target, fromPath) })
      const unresolved: string[] = []
      let resolved = 0
      for (const pagePath of docs.paths()) {
        const html = site.render(await readFile(path.join(demo, pagePath), 'utf8'), { relativePath: pagePath, cleanUrls: true })
        for (const match of html.matchAll(/data-target="([^"]*)"/g)) unresolved.push(`${pagePath}: ${match[1]}`)
        resolved += html.match(/class="metablog-link"/g)?.length ?? 0
      }
      const expected = docs.unresolved().map((link) => `${link.source}: ${link.target}`)
      expect([...new Set(unresolved)].sort()).toEqual([...new Set(expected)].sort())
      expect(unresolved).toContain('posts/understanding-etags.md: Future post about CRDTs')
      expect(resolved).toBeGreaterThan(25)
    } finally {
      await rm(demo, { recursive: true, force: true })
    }
  })
})
