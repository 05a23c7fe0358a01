import { beforeAll, describe, expect, it } from 'vitest'
import { createMarkdownRenderer, disposeMdItInstance, type MarkdownRenderer } from 'vitepress'
import { wikiLinkPlugin } from '../../../../plugin/markdown/wiki-link-rule.js'
import { KnowledgeIndex, type OutgoingLink } from '../../../../server/knowledge/knowledge-index.js'
import { REPO_ROOT } from '../../../helpers/dev-server.js'

const page = (title: string, extra = '') => `---\ntitle: ${title}\n${extra}---\n\n# ${title}\n\nText.\n`

const SITE: Record<string, string> = {
  'index.md': page('Home'),
  'about.md': page('About this blog'),
  'setup.md': page('Setup at the root'),
  'notes/setup.md': page('Setup notes'),
  'guides/deep/setup.md': page('Deep setup'),
  'notes/overview.md': page('Notes overview'),
  'guides/overview.md': page('Guides overview'),
  'posts/index.md': page('Posts'),
  'posts/atomic-file-writes.md': page('Atomic file writes in Node.js'),
  'posts/understanding-etags.md': page('Understanding ETags', 'aliases: [Optimistic Concurrency]\n'),
  'posts/title-is-about.md': page('about'),
  'posts/title-owner.md': page('Shared Name'),
  'posts/alias-owner.md': page('Alias owner', 'aliases: [Shared Name]\n'),
  'notes/twin-b.md': page('Twin B', 'aliases: [Twin]\n'),
  'notes/twin-a.md': page('Twin A', 'aliases: [Twin]\n'),
  'notes/My Page.md': page('Spaced'),
  'zh/vitepress-blog.md': page('用 VitePress 搭建个人博客'),
  'zh/知识图谱.md': page('关于知识图谱'),
}

type Expected = Partial<Pick<OutgoingLink, 'syntax' | 'heading' | 'label' | 'embed'>> & { resolved: string | null }

interface Case {
  name: string
  markdown: string
  /** Where the link is written. Default 'probe/page.md'. */
  from?: string
  links: Expected[]
}

const ETAGS = 'posts/understanding-etags.md'
const ATOMIC = 'posts/atomic-file-writes.md'

const CASES: Case[] = [
  { name: 'file name', markdown: '[[atomic-file-writes]]', links: [{ resolved: ATOMIC }] },
  { name: 'file name, any case', markdown: '[[ATOMIC-File-Writes]]', links: [{ resolved: ATOMIC }] },
  { name: 'file name with .md', markdown: '[[atomic-file-writes.md]]', links: [{ resolved: ATOMIC }] },
  { name: 'folder/name', markdown: '[[posts/atomic-file-writes]]', links: [{ resolved: ATOMIC }] },
  { name: 'leading slash', markdown: '[[/posts/atomic-file-writes]]', links: [{ resolved: ATOMIC }] },
  { name: 'path suffix', markdown: '[[deep/setup]]', links: [{ resolved: 'guides/deep/setup.md' }] },
  { name: 'collision: the shortest path wins', markdown: '[[setup]]', links: [{ resolved: 'setup.md' }] },
  { name: 'collision, same depth: the shorter path wins', markdown: '[[overview]]', links: [{ resolved: 'notes/overview.md' }] },
  { name: 'collision narrowed by folder', markdown: '[[notes/setup]]', links: [{ resolved: 'notes/setup.md' }] },
  { name: 'title (with a dot that is not an extension)', markdown: '[[Atomic file writes in Node.js]]', links: [{ resolved: ATOMIC }] },
  { name: 'title, any case', markdown: '[[understanding etags]]', links: [{ resolved: ETAGS }] },
  { name: 'title of a folder index', markdown: '[[Posts]]', links: [{ resolved: 'posts/index.md' }] },
  { name: 'alias', markdown: '[[Optimistic Concurrency]]', links: [{ resolved: ETAGS }] },
  { name: 'file name beats title', markdown: '[[about]]', links: [{ resolved: 'about.md' }] },
  { name: 'title beats alias', markdown: '[[Shared Name]]', links: [{ resolved: 'posts/title-owner.md' }] },
  { name: 'alias collision', markdown: '[[twin]]', links: [{ resolved: 'notes/twin-a.md' }] },
  { name: 'label', markdown: '[[atomic-file-writes|atomic writes]]', links: [{ resolved: ATOMIC, label: 'atomic writes' }] },
  { name: 'heading', markdown: '[[atomic-file-writes#Why rename is atomic]]', links: [{ resolved: ATOMIC, heading: 'Why rename is atomic' }] },
  { name: 'heading and label', markdown: '[[atomic-file-writes#Why rename|why]]', links: [{ resolved: ATOMIC, heading: 'Why rename', label: 'why' }] },
  { name: 'nested heading: the last one', markdown: '[[atomic-file-writes#Part#Sub part]]', links: [{ resolved: ATOMIC, heading: 'Sub part' }] },
  { name: 'heading on this page', markdown: '[[#Local heading]]', links: [{ resolved: 'probe/page.md', heading: 'Local heading' }] },
  { name: 'page embed', markdown: '![[atomic-file-writes]]', links: [{ resolved: ATOMIC, embed: true }] },
  { name: 'image embed is not a page link', markdown: '![[diagram.png]] and ![[img/photo.JPG|300]]', links: [] },
  { name: 'file link is not a page link', markdown: '[[report.pdf]]', links: [] },
  { name: 'Chinese title', markdown: '[[用 VitePress 搭建个人博客]]', links: [{ resolved: 'zh/vitepress-blog.md' }] },
  { name: 'Chinese file name', markdown: '[[知识图谱]]', links: [{ resolved: 'zh/知识图谱.md' }] },
  { name: 'Chinese path and heading', markdown: '[[zh/知识图谱#什么是双向链接]]', links: [{ resolved: 'zh/知识图谱.md', heading: '什么是双向链接' }] },
  { name: 'space in the file name', markdown: '[[My Page]]', links: [{ resolved: 'notes/My Page.md' }] },
  { name: 'extra spaces and case', markdown: '[[  my   PAGE ]]', links: [{ resolved: 'notes/My Page.md' }] },
  { name: 'unresolved', markdown: '[[Future post about CRDTs]]', links: [{ resolved: null }] },
  { name: 'unresolved folder', markdown: '[[nowhere/atomic-file-writes]]', links: [{ resolved: null }] },
  { name: 'part of a file name does not match', markdown: '[[file-writes]]', links: [{ resolved: null }] },
  { name: 'inline code', markdown: 'see `[[atomic-file-writes]]` here', links: [] },
  { name: 'double-backtick code with a backtick inside', markdown: 'see `` a ` [[atomic-file-writes]] `` here', links: [] },
  { name: 'an unclosed backtick is text', markdown: 'a ` then [[atomic-file-writes]]', links: [{ resolved: ATOMIC }] },
  { name: 'fenced code', markdown: '```md\n[[atomic-file-writes]]\n```\n\n[[about]]', links: [{ resolved: 'about.md' }] },
  { name: 'tilde fence', markdown: '~~~\n[[atomic-file-writes]]\n~~~', links: [] },
  { name: 'unclosed fence runs to the end', markdown: '````\n[[atomic-file-writes]]\n```\n[[about]]', links: [] },
  { name: 'indented code', markdown: 'Text.\n\n    [[atomic-file-writes]]\n\nAfter.', links: [] },
  { name: 'indented list continuation is not code', markdown: '- item\n\n    [[about]]', links: [{ resolved: 'about.md' }] },
  { name: 'escaped pipe in a table', markdown: '| a | b |\n| --- | --- |\n| x | [[atomic-file-writes\\|atomic writes]] |', links: [{ resolved: ATOMIC, label: 'atomic writes' }] },
  { name: 'escaped bracket', markdown: '\\[[atomic-file-writes]]', links: [] },
  { name: 'HTML comment', markdown: '<!-- [[atomic-file-writes]] -->\n\n[[about]]', links: [{ resolved: 'about.md' }] },
  { name: 'HTML block', markdown: '<div class="x">\n[[atomic-file-writes]]\n</div>', links: [] },
  { name: 'link in a heading', markdown: '## See [[about]]', links: [{ resolved: 'about.md' }] },
  { name: 'no link across lines', markdown: '[[atomic-file-\nwrites]]', links: [] },
  { name: 'Markdown link, relative', markdown: '[x](../posts/atomic-file-writes.md)', links: [{ resolved: ATOMIC, syntax: 'markdown' }] },
  { name: 'Markdown link with anchor', from: 'notes/probe.md', markdown: '[x](./setup.md#intro)', links: [{ resolved: 'notes/setup.md', heading: 'intro' }] },
  { name: 'Markdown link, root route', markdown: '[x](/posts/understanding-etags)', links: [{ resolved: ETAGS }] },
  { name: 'Markdown link to a folder', markdown: '[x](../posts/)', links: [{ resolved: 'posts/index.md' }] },
  { name: 'Markdown link, missing page', markdown: '[x](./missing.md)', links: [{ resolved: null, syntax: 'markdown' }] },
  { name: 'external and image links are not edges', markdown: '[x](https://example.com/a.md) ![p](./pic.png) [m](mailto:a@b.c)', links: [] },
  { name: 'relative wiki-link', from: 'notes/probe.md', markdown: '[[./setup]]', links: [{ resolved: 'notes/setup.md' }] },
  { name: 'relative wiki-link upwards', from: 'notes/probe.md', markdown: '[[../setup]]', links: [{ resolved: 'setup.md' }] },
]

function buildWith(from: string, markdown: string): KnowledgeIndex {
  return KnowledgeIndex.build([...Object.entries(SITE).map(([path, content]) => ({ path, content })), { path: from, content: markdown }])
}

let md: MarkdownRenderer
let current: KnowledgeIndex

beforeAll(async () => {
  disposeMdItInstance()
  md = await createMarkdownRenderer(REPO_ROOT)
  md.use(wikiLinkPlugin, { resolve: (target: string, fromPath: string) => current.resolve(target, fromPath) })
})

describe('wiki-link resolution table', () => {
  it('has at least 30 cases', () => {
    expect(CASES.length).toBeGreaterThanOrEqual(30)
  })

  for (const testCase of CASES) {
    it(testCase.name, () => {
      const from = testCase.from ?? 'probe/page.md'
      const index = buildWith(from, testCase.markdown)
      const links = index.outgoing(from)
      expect(links.map((link) => link.resolved)).toEqual(testCase.links.map((link) => link.resolved))
      testCase.links.forEach((expected, position) => expect(links[position]).toMatchObject(expected))

      // The renderer agrees with the parser on which wiki-links exist and which resolve.
      current = index
      const html = md.render(testCase.markdown, { relativePath: from })
      const wikiLinks = links.filter((link) => link.syntax === 'wiki')
      const classes = [...html.matchAll(/class="(metablog-link[^"]*)"/g)].map((match) => match[1]!).filter((name) => !name.includes('--file'))
      expect(classes.length).toBe(wikiLinks.length)
      expect(classes.filter((name) => name.includes('metablog-link--unresolved')).length).toBe(wikiLinks.filter((link) => link.resolved === null).length)
    })
  }
})

describe('collisions and unresolved links are reported', () => {
  it('lists each colliding name with its candidates, the winner first, and who links that way', () => {
    const index = buildWith('probe/page.md', '[[setup]] [[overview]] [[Twin]] [[notes/setup]] [[Setup]]')
    expect(index.collisions()).toEqual([
      { name: 'overview', chosen: 'notes/overview.md', candidates: ['notes/overview.md', 'guides/overview.md'], sources: ['probe/page.md'] },
      { name: 'setup', chosen: 'setup.md', candidates: ['setup.md', 'notes/setup.md', 'guides/deep/setup.md'], sources: ['probe/page.md'] },
      { name: 'twin', chosen: 'notes/twin-a.md', candidates: ['notes/twin-a.md', 'notes/twin-b.md'], sources: ['probe/page.md'] },
    ])
  })

  it('keeps unresolved links, once per source and target, as written', () => {
    const index = buildWith('probe/page.md', '[[Future post]] [[future post|again]] [[Future post]] [x](./gone.md)')
    expect(index.unresolved()).toEqual([
      { source: 'probe/page.md', target: './gone.md' },
      { source: 'probe/page.md', target: 'Future post' },
      { source: 'probe/page.md', target: 'future post' },
    ])
  })
})
