import { describe, expect, it } from 'vitest'
import { parseMarkdown } from '../../../../server/knowledge/parse-blocks.js'
import { parsePage } from '../../../../server/knowledge/parse-page.js'
import { parseWikiInner } from '../../../../server/knowledge/wiki-syntax.js'

describe('parseWikiInner', () => {
  it.each([
    ['Page', { target: 'Page' }],
    [' folder/Page ', { target: 'folder/Page' }],
    ['Page|shown', { target: 'Page', label: 'shown' }],
    ['Page\\|shown', { target: 'Page', label: 'shown' }],
    ['Page#Heading', { target: 'Page', heading: 'Heading' }],
    ['Page#A#B|x', { target: 'Page', heading: 'B', label: 'x' }],
    ['#Heading', { target: '', heading: 'Heading' }],
    ['a|b|c', { target: 'a', label: 'b|c' }],
  ])('%s', (inner, expected) => {
    expect(parseWikiInner(inner)).toEqual(expected)
  })

  it.each(['', '  ', '#', '|x', 'a\nb', 'a [[b'])('%j is not a link', (inner) => {
    expect(parseWikiInner(inner)).toBeNull()
  })
})

describe('parseMarkdown', () => {
  it('reports where each link is: offset and line in the whole file', () => {
    const content = '---\ntitle: T\n---\n\n# T\n\nFirst [[a]] and\nthen ![[b#H|c]] and [d](./d.md#x).\n'
    const page = parsePage('p.md', content)
    expect(page.links.map(({ target, offset, line }) => ({ target, offset, line }))).toEqual([
      { target: 'a', offset: content.indexOf('[[a]]'), line: 7 },
      { target: 'b', offset: content.indexOf('![[b'), line: 8 },
      { target: './d.md', offset: content.indexOf('[d]'), line: 8 },
    ])
    expect(page.links[1]).toMatchObject({ embed: true, heading: 'H', label: 'c' })
    expect(page.links[2]).toMatchObject({ syntax: 'markdown', heading: 'x', label: 'd' })
  })

  it('collects headings with their text as rendered and explicit ids', () => {
    const { headings } = parseMarkdown(
      '# Title\n\n## Use `fs.rename` **now** {#custom}\n\nSetext one\n===\n\n### See [[Page|the page]] ###\n\n```\n# not a heading\n```\n',
    )
    expect(headings).toEqual([
      { level: 1, text: 'Title', id: undefined },
      { level: 2, text: 'Use fs.rename now', id: 'custom' },
      { level: 1, text: 'Setext one', id: undefined },
      { level: 3, text: 'See the page', id: undefined },
    ])
  })

  it('handles Windows line endings', () => {
    const { links, headings } = parseMarkdown('## Head\r\n\r\n```\r\n[[no]]\r\n```\r\n[[yes]]\r\n')
    expect(headings.map((heading) => heading.text)).toEqual(['Head'])
    expect(links.map((link) => link.target)).toEqual(['yes'])
  })

  it('skips fences inside blockquotes and lists, but not the prose around them', () => {
    const source = ['> ```', '> [[quoted-code]]', '> ```', '> [[quoted]]', '', '- item', '  ```', '  [[list-code]]', '  ```', '- [[listed]]'].join('\n')
    expect(parseMarkdown(source).links.map((link) => link.target)).toEqual(['quoted', 'listed'])
  })

  it('treats script, style and comment blocks as raw until they close', () => {
    const source = ['<script>', 'const a = "[[x]]"', '</script>', '[[after-script]]', '', '<!--', '[[commented]]', '-->', '[[after-comment]]'].join('\n')
    expect(parseMarkdown(source).links.map((link) => link.target)).toEqual(['after-script', 'after-comment'])
  })

  it('skips inline HTML tags and autolinks but not text between them', () => {
    expect(parseMarkdown('<span title="[[x]]">[[y]]</span> <https://a.b/[[z]]>').links.map((link) => link.target)).toEqual(['y'])
  })

  it('does not count images or links inside a wiki-link as page links', () => {
    expect(parseMarkdown('![alt](./page.md) [ok](./page.md "title")').links.map((link) => link.target)).toEqual(['./page.md'])
  })

  it('reads a rule (---, * * *, ___) as a rule, not as text a later --- turns into a heading', () => {
    expect(parseMarkdown('---\n---\n* * *\n___\n').headings).toEqual([])
    expect(parseMarkdown('Title\n---\n---\n').headings).toEqual([{ level: 2, text: 'Title', id: undefined }])
    expect(parseMarkdown('---\n[[After]]\n').links.map((link) => link.target)).toEqual(['After'])
  })
})
