import { beforeAll, describe, expect, it } from 'vitest'
import { createMarkdownRenderer, disposeMdItInstance, type MarkdownRenderer } from 'vitepress'
import { wikiLinkPlugin } from '../../../../plugin/markdown/wiki-link-rule.js'
import { headingIds } from '../../../../server/knowledge/heading-ids.js'
import { KnowledgeIndex } from '../../../../server/knowledge/knowledge-index.js'
import { parseMarkdown } from '../../../../server/knowledge/parse-blocks.js'
import { REPO_ROOT } from '../../../helpers/dev-server.js'

const HEADINGS = `# Views

## Views

## Views

## Views-1

## What's new? (v1.2)

## 表格视图

## 表格视图

## 1. Numbered first

## Émigré café & co.

## Use \`fs.rename()\` — safely

## **Bold** and _em_

## Custom {#my-id}

## Views

### A -- B --- C

## “Quoted” ‘words’ <and> [brackets]

## The \`<div>\` element

## See [[Links#Top]], [[Links|the links]] and [[#Views]]
`

let md: MarkdownRenderer
let index: KnowledgeIndex
const render = (source: string, relativePath = 'Bases/Views.md') => md.render(source, { relativePath, cleanUrls: true })
const renderedIds = (html: string) => [...html.matchAll(/<h[1-6] id="([^"]*)"/g)].map((match) => match[1])

beforeAll(async () => {
  index = KnowledgeIndex.build([
    { path: 'Bases/Views.md', content: HEADINGS },
    { path: 'Notes/Links.md', content: '# Links\n' },
  ])
  disposeMdItInstance()
  md = await createMarkdownRenderer(REPO_ROOT)
  md.use(wikiLinkPlugin, {
    resolve: (target, fromPath) => index.resolve(target, fromPath),
    fragmentId: (pagePath, fragment) => index.fragmentId(pagePath, fragment),
  })
})

describe('heading ids: the index predicts exactly what VitePress renders', () => {
  it('slug and de-duplication, including punctuation, CJK, code, emphasis, explicit ids and a slug that collides with a suffix', () => {
    const rendered = renderedIds(render(HEADINGS))
    expect(headingIds(parseMarkdown(HEADINGS).headings)).toEqual(rendered)
    expect(rendered).toEqual([
      'views', 'views-1', 'views-2', 'views-1-1', 'what-s-new-v1-2', '表格视图', '表格视图-1', '_1-numbered-first', 'emigre-cafe-co',
      'use-fs-rename-—-safely', 'bold-and-em', 'my-id', 'views-3', 'a-b-c', 'quoted-words-brackets',
      'the-div-element',
      'see-links-›-top-the-links-and-views',
    ])
  })

  it('agrees with VitePress on 400 random headings: punctuation, CJK, accents, digits, blanks and repeats', () => {
    // Characters Markdown leaves as text in a heading, so what is compared is the slug and the numbering.
    const alphabet = [...'abcXYZ019 -_.,;!?@$%^()+=/\'"“”‘’|', 'é', 'ü', 'ß', 'Å', '知', '识', '图', '表', 'ア', '한', 'ω', '—', '…', '·', '\u3000']
    let seed = 17
    const random = (limit: number) => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) % limit)
    const pool: string[] = []
    const lines: string[] = []
    for (let count = 0; count < 400; count++) {
      let text = ''
      for (let length = 1 + random(14); length > 0; length--) text += alphabet[random(alphabet.length)]
      // Every fifth heading repeats an earlier one (or one that slugs alike), to exercise the -1, -2 numbering.
      if (pool.length && random(5) === 0) text = pool[random(pool.length)]! + (random(2) ? '' : '?')
      pool.push(text)
      lines.push(`## x${text}x`)
    }
    const source = lines.join('\n\n')
    expect(headingIds(parseMarkdown(source).headings)).toEqual(renderedIds(render(source)))
  })

  it('a link to another page’s heading reaches the first heading with that text, as Obsidian does', () => {
    const links = render(
      ['Views', "What's new? (v1.2)", '表格视图', 'Custom', 'Use fs.rename() — safely', 'views-1', 'Not a heading'].map((heading) => `[[Views#${heading}]]`).join(' '),
      'Notes/Links.md',
    )
    const fragments = [...links.matchAll(/href="\/Bases\/Views#([^"]*)"/g)].map((match) => match[1])
    // 'views-1' is the text of a heading ("Views-1"), so it reaches that heading, not the second "Views".
    expect(fragments).toEqual(['views', 'what-s-new-v1-2', '表格视图', 'my-id', 'use-fs-rename-—-safely', 'views-1-1', 'not-a-heading'])
  })

  it('a link to a heading of the same page uses the ids this render gave, even before the index knows the page', () => {
    const html = render('# Draft\n\n## Step\n\n## Step\n\n## Step?\n\n[[#Step]] [[#Step?]] [[#step]] [[#Draft]]', 'Notes/New.md')
    expect([...html.matchAll(/href="(#[^"]*)" class="metablog-link"/g)].map((match) => match[1])).toEqual(['#step', '#step-2', '#step', '#draft'])
  })
})

describe('heading ids stay current', () => {
  it('a page whose headings change re-renders the pages that link into them, and only those', () => {
    const live = KnowledgeIndex.build([
      { path: 'Views.md', content: '# Views\n\n## Table\n' },
      { path: 'a.md', content: '[[Views#Table]]' },
      { path: 'b.md', content: '[[Views]]' },
    ])
    expect(live.fragmentId('Views.md', 'Table')).toBe('table')
    // A heading with the same text above it takes 'table'; the link's heading becomes 'table-1'.
    const update = live.upsert('Views.md', '# Views\n\n## Table\n\nNew.\n\n## Table\n')
    expect(live.fragmentId('Views.md', 'Table')).toBe('table')
    expect(update.relinked).toEqual(['a.md'])
    expect(live.upsert('Views.md', '# Views\n\n## Table\n\nNew.\n\n## Table\n\nMore text.\n').relinked).toEqual([])
  })
})

describe('block ids', () => {
  it('give the paragraph ending in ^id that id and hide the marker', () => {
    const html = render('A claim worth citing. ^claim-1\n\nSee [[#^claim-1]] and [[Views#^table-1|the table]].', 'Notes/Links.md')
    expect(html).toContain('<p id="^claim-1">A claim worth citing.</p>')
    expect(html).toContain('href="#^claim-1"')
    expect(html).toContain('href="/Bases/Views#^table-1"')
  })

  it('go on a tight list item, on a loose one’s paragraph, and on the table or quote before a lone ^id line', () => {
    expect(render('- first ^item-a\n- second\n')).toContain('<li id="^item-a">first</li>')
    expect(render('- first ^item-b\n\n- second\n')).toContain('<p id="^item-b">first</p>')
    const table = render('| a | b |\n| - | - |\n| 1 | 2 |\n\n^table-1\n')
    expect(table).toContain('<table id="^table-1" tabindex="0">')
    expect(table).not.toContain('^table-1<')
    expect(render('> quoted\n\n^quote-1\n')).toContain('<blockquote id="^quote-1">')
  })

  it('leave anything that is not a block id as text', () => {
    for (const source of ['Costs 2^10 here', 'Not an id ^under_score', 'Not at the end ^id-1 here', '`code ^id`']) {
      expect(render(source), source).not.toMatch(/ id="/)
    }
  })
})
