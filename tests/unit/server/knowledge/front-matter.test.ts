import fs from 'node:fs/promises'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { readPageMeta } from '../../../../server/knowledge/front-matter.js'
import { parsePageMeta } from '../../../../server/page-meta.js'
import { syntheticBlog } from '../../../bench/knowledge-synthetic-blog.js'
import { copySite, REPO_ROOT } from '../../../helpers/dev-server.js'
import { createRandom, randomContent, randomPath } from './random-site.js'

// readPageMeta is a fast path in front of parsePageMeta: it must never disagree with it.
const FRONT_MATTERS = [
  'title: Plain title',
  'title: "Quoted: with colon"',
  "title: 'Single quoted'",
  'title: Vite: the good parts',
  'title: Don\'t panic [really] {ok}',
  'title: Has # hash',
  'title: Has a#hash',
  'title: 2026 in review',
  'title: 12345',
  'title: -dash',
  'title: true',
  'title: ~',
  'title: null',
  'title: yes',
  'title:',
  'title:    ',
  'title: ""',
  'title: "  padded  "',
  'title: "esc \\" quote"',
  'title: 用 VitePress 搭建个人博客',
  'title: Ünïcode façade',
  'title: tab\tinside',
  'date: 2026-06-24',
  'date: 2026-13-45',
  'date: 2026-06-24T10:00:00Z',
  'date: "2026-06-24"',
  'date: June 2026',
  'tags: [a, b, c]',
  'tags: []',
  'tags: [ spaced , "quoted, comma", \'single\' ]',
  'tags: [1, 2]',
  'tags: [a, , b]',
  'tags: [a, [nested]]',
  'tags: a, b',
  'tags: single',
  'tags:\n  - a\n  - b',
  'aliases: [Optimistic Concurrency]',
  'aliases: [别名, Other Name]',
  'draft: true',
  'draft: True',
  'draft: "true"',
  'order: 3',
  'order: 03',
  'order: -1',
  'order: 1.5',
  'order: 0x10',
  'description: A long sentence, with commas; and semicolons.',
  'description: >\n  folded\n  text',
  'title: A\ntitle: B',
  '# a comment\ntitle: After comment',
  'title: x # trailing comment',
  'nested:\n  key: value',
  'key with space: x',
  'title: [unclosed',
  'title: &anchor value',
  'title: *alias',
  'title: !tag value',
  'title: |',
  'title: @at',
  'title: `tick`',
  'title: %percent',
  // Characters the fast path checks in one pass over the value or over the whole front matter.
  'title: ends with colon:',
  'title: colon:inside',
  'title: a\rcarriage return',
  'title: line\u2028separator',
  'title: para\u2029separator',
  '\r\ntitle: after a stray return',
  'title: \u00a0no-break space first',
  'title: \u3000ideographic space first',
  'tags: [a:b, c]',
  'tags: [a: b]',
  'tags: [x}, y]',
  'tags: [no, yes]',
  'tags: [False]',
  'title: Falsey',
  'title: -1x',
  'title: 2026-06-24x',
]

const BODIES = ['', '# Heading title\n\nText.', '\n\nText without heading.', '\r\n# CRLF heading\r\n']

function documents(): { name: string; path: string; content: string }[] {
  const found: { name: string; path: string; content: string }[] = []
  for (const front of FRONT_MATTERS) {
    for (const body of BODIES) {
      found.push({ name: `${front} | ${JSON.stringify(body)}`, path: 'posts/page.md', content: `---\n${front}\n---\n${body}` })
    }
    found.push({ name: `${front} (CRLF)`, path: 'index.md', content: `---\r\n${front.replace(/\n/g, '\r\n')}\r\n---\r\n# H\r\n` })
  }
  const odd = ['', 'no front matter', '---', '---\n', '---\ntitle: never closed', '----\ntitle: x\n---\n', '---yaml\ntitle: x\n---\n', '---\n\n---\n# Empty', '\uFEFF---\ntitle: BOM\n---\n', '---\ntitle: x\n---more\nbody', '---\ntitle: x\n--- \nbody']
  odd.forEach((content, index) => found.push({ name: `odd #${index} ${JSON.stringify(content)}`, path: 'notes/index.md', content }))
  return found
}

describe('readPageMeta gives exactly what parsePageMeta gives', () => {
  it.each(documents().map((document) => [document.name, document] as const))('%s', (_name, document) => {
    expect(readPageMeta(document.path, document.content)).toEqual(parsePageMeta(document.path, document.content))
  })

  it('on the demo blog, the synthetic benchmark blog and random pages', async () => {
    const pages: { path: string; content: string }[] = []
    // A copy of the demo, never the live folder an author may be editing.
    const demo = await copySite(path.join(REPO_ROOT, 'docs'))
    try {
      for (const folder of ['', 'posts', 'notes', 'zh']) {
        for (const name of await fs.readdir(path.join(demo, folder))) {
          if (name.endsWith('.md')) pages.push({ path: `${folder ? `${folder}/` : ''}${name}`, content: await fs.readFile(path.join(demo, folder, name), 'utf8') })
        }
      }
    } finally {
      await fs.rm(demo, { recursive: true, force: true })
    }
    pages.push(...syntheticBlog(300).pages)
    const random = createRandom(7)
    for (let index = 0; index < 300; index++) {
      const pagePath = randomPath(random)
      pages.push({ path: pagePath, content: randomContent(random, pagePath, []) })
    }
    for (const page of pages) expect(readPageMeta(page.path, page.content), page.path).toEqual(parsePageMeta(page.path, page.content))
  })
})
