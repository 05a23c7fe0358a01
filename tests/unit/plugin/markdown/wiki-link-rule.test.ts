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

const FILES = KnowledgeIndex.build([], ['Attachments/diagram.png', 'Attachments/old/diagram.png', 'assets/photo 1.jpg', 'chart.svg', 'media/talk.mp3', 'media/clip.mp4', 'slides.pdf', 'public/logo.svg'])
let current = FILES
const resolveAttachment: WikiLinkOptions['resolveAttachment'] = (target, fromPath) => current.resolveAttachment(target, fromPath)

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
  md.use(wikiLinkPlugin, { resolve, resolveAttachment, ...options })
  return md
}

// Each new VitePress renderer disposes the previous one's highlighter, so the main one is made last.
let forcedHtmlUrls: MarkdownRenderer
let withBase: MarkdownRenderer
let bare: MarkdownRenderer
let md: MarkdownRenderer
const render = (source: string, env: Record<string, unknown> = {}) =>
  md.render(source, { relativePath: 'posts/current.md', cleanUrls: true, ...env }).trim()

beforeAll(async () => {
  forcedHtmlUrls = await renderer({ cleanUrls: false })
  withBase = await renderer({ base: '/blog' })
  bare = await renderer({ resolveAttachment: undefined })
  md = await renderer()
})

describe('wikiLinkPlugin: links', () => {
  it("leaves VitePress's own [[toc]] to VitePress: a table of contents, not a link", () => {
    const html = render('## One\n\n[[toc]]\n\n## Two\n')
    expect(html).toContain('class="table-of-contents"')
    expect(html).not.toContain('metablog-link')
  })

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

  it('renders image embeds from the attachment found by name, with a size; a missing one as a marker, never a URL', () => {
    expect(render('![[diagram.png]]', { relativePath: 'notes/page.md' })).toBe(
      '<p><img :src="\'/Attachments/diagram.png\'" alt="diagram.png" class="metablog-embed metablog-embed-image" loading="lazy"></p>',
    )
    expect(render('![[assets/photo 1.jpg|300x200]]')).toBe(
      '<p><img width="300" height="200" :src="\'/assets/photo%201.jpg\'" alt="photo 1.jpg" class="metablog-embed metablog-embed-image" loading="lazy"></p>',
    )
    expect(render('![[chart.svg|A "quoted" caption|300]]')).toContain('alt="A &quot;quoted&quot; caption"')
    expect(render('![[chart.svg|A "quoted" caption|300]]')).toContain('width="300"')
    const missing = render('![[nowhere.png|300]]')
    expect(missing).not.toMatch(/src=|href=/)
    expect(missing).toContain('class="metablog-link metablog-link--file metablog-link--unresolved metablog-embed"')
    expect(missing).toContain('data-target="nowhere.png"')
  })

  it('embeds audio, video and PDFs, links other files, and keeps a fragment', () => {
    expect(render('![[talk.mp3]]')).toBe('<p><audio v-pre="" src="/media/talk.mp3" class="metablog-embed metablog-embed-audio" controls=""></audio></p>')
    expect(render('![[clip.mp4|640]]')).toBe('<p><video width="640" :src="\'/media/clip.mp4\'" class="metablog-embed metablog-embed-video" controls=""></video></p>')
    expect(render('![[slides.pdf#page=3]]')).toBe(
      '<p><iframe v-pre="" src="/slides.pdf#page=3" class="metablog-embed metablog-embed-pdf" title="slides.pdf"></iframe></p>',
    )
    expect(render('[[slides.pdf]]')).toBe('<p><a v-pre="" href="/slides.pdf" class="metablog-link metablog-link--file">slides.pdf</a></p>')
  })

  it('puts attachment URLs under the base, and serves files in public/ from the root', () => {
    expect(withBase.render('![[diagram.png]] [[slides.pdf]]', { relativePath: 'a.md' })).toContain(`:src="'/blog/Attachments/diagram.png'"`)
    expect(withBase.render('[[slides.pdf]]', { relativePath: 'a.md' })).toContain('href="/blog/slides.pdf"')
    expect(render('![[logo.svg]]')).toContain(`:src="'/logo.svg'"`)
  })

  it('without an attachment resolver, renders every attachment as missing rather than guessing a URL', () => {
    expect(bare.render('![[diagram.png]]', { relativePath: 'a.md' })).toContain('metablog-link--unresolved')
  })

  it('marks an embed of a missing page as unresolved', () => {
    expect(render('![[Nothing here]]')).toContain('class="metablog-link metablog-link--unresolved metablog-embed"')
  })
})

describe('wikiLinkPlugin: nothing it emits is Vue template code', () => {
  const template = "{{ constructor.constructor('globalThis.pwned = 1')() }}"
  const opening = (html: string) => [...html.matchAll(/<a [^>]*>/g)].map((match) => match[0])

  it('marks every anchor v-pre, so a title, label or target with {{ }} stays text', () => {
    for (const source of ['![[template]]', '[[template]]', `[[template|${template}]]`, `[[${template}]]`, `[[{{ alias }}]]`, '[[slides.pdf]]']) {
      const html = render(source)
      expect(opening(html).length, source).toBe(1)
      for (const tag of opening(html)) expect(tag, source).toContain(' v-pre=""')
    }
  })

  const ALLOWED_ATTRIBUTES = new Set(['v-pre', ':src', 'src', 'href', 'alt', 'class', 'loading', 'width', 'height', 'controls', 'title'])
  it('gives hostile attachment names no scheme, quote, tag or live {{ }}: every element v-pre, every URL %-encoded', () => {
    const names = ['javascript:alert(1).png', '"><img src=x onerror=alert(1)>.png', '{{ constructor.constructor(1)() }}.svg', "it's.pdf", 'a b&c.mp4', "x'; globalThis.pwned = 1; '.png", "Bob's 图表 (1).mov"]
    const hostile = KnowledgeIndex.build([], names.map((name) => `Attachments/${name}`))
    current = hostile
    for (const name of names) {
      for (const source of [`![[${name}]]`, `[[${name}]]`, `![[${name}|{{ x }}|300]]`]) {
        const html = render(source)
        expect(html, source).toMatch(/ :?(src|href)="'?\/Attachments\//)
        // Every element is v-pre, but an img or video, whose src is bound to a plain string literal
        // (a static one would become a module import with the name unescaped in it).
        for (const tag of html.match(/<(?:a|img|iframe|audio|video)\b[^>]*>/g) ?? []) {
          if (/^<(?:img|video)/.test(tag)) expect(tag, source).toMatch(/ :src="'\/Attachments\/[A-Za-z0-9%._~-]+'"/)
          else expect(tag, source).toContain(' v-pre=""')
        }
        for (const url of html.match(/ (?:src|href)="[^"]*"/g) ?? []) expect(url, source).toMatch(/^ (?:src|href)="\/Attachments\/[A-Za-z0-9%._~-]+"$/)
        // Only our own attributes: a name's quote or tag never opens a new one.
        for (const tag of html.match(/<[a-z]+\b(?:\s+:?[\w-]+(?:="[^"]*")?)*\s*>/g) ?? []) {
          const attributes = [...tag.matchAll(/\s(:?[\w-]+)(?:="[^"]*")?/g)].map((match) => match[1])
          expect(attributes.filter((attribute) => !ALLOWED_ATTRIBUTES.has(attribute!)), source).toEqual([])
        }
        expect(html.match(/<[a-z]/g)?.length, source).toBe(2)
      }
    }
    current = FILES
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
