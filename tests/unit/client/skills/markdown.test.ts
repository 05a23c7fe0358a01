import { describe, expect, it } from 'vitest'
import matter from 'gray-matter'
import { guardContent } from '../../../../server/content-guard/index.js'
import { codeBlocks, composeFrontMatter, setFrontMatterField, slugForTitle, stripFrontMatter, today, wikiLinkLabel, yamlString } from '../../../../client/skills/markdown'

describe('front matter', () => {
  it('composes YAML with quoted strings and only the fields given', () => {
    expect(composeFrontMatter({ title: 'A "quoted": title', date: '2026-03-01', tags: ['a', 'b c'], description: 'One line.', draft: true })).toBe(
      '---\ntitle: "A \\"quoted\\": title"\ndate: 2026-03-01\ntags: ["a", "b c"]\ndescription: "One line."\ndraft: true\n---\n',
    )
    expect(composeFrontMatter({ title: 'T' })).toBe('---\ntitle: "T"\n---\n')
  })

  it('strips front matter and leaves a page without it alone', () => {
    expect(stripFrontMatter('---\ntitle: x\n---\n# Body\n')).toBe('# Body\n')
    expect(stripFrontMatter('---\r\ntitle: x\r\n---\r\nBody')).toBe('Body')
    expect(stripFrontMatter('# No front matter\n---\n')).toBe('# No front matter\n---\n')
  })

  it('sets a field: replaces it, adds it, or adds the block', () => {
    const page = '---\ntitle: "T"\ndescription: old\n---\n# Body\n'
    expect(setFrontMatterField(page, 'description', 'New: "one"')).toBe('---\ntitle: "T"\ndescription: "New: \\"one\\""\n---\n# Body\n')
    expect(setFrontMatterField('---\ntitle: "T"\n---\nBody\n', 'description', 'D')).toBe('---\ntitle: "T"\ndescription: "D"\n---\nBody\n')
    expect(setFrontMatterField('Body\n', 'description', 'D')).toBe('---\ndescription: "D"\n---\nBody\n')
  })

  it('does not touch a field whose name only starts the same', () => {
    const page = '---\ndescriptionLong: keep\n---\nBody\n'
    expect(setFrontMatterField(page, 'description', 'D')).toBe('---\ndescriptionLong: keep\ndescription: "D"\n---\nBody\n')
  })
})

describe('names', () => {
  it('slugs Latin titles and gives titles without Latin letters a dated name', () => {
    expect(slugForTitle('Hello, World: Part 2!')).toBe('hello-world-part-2')
    expect(slugForTitle('缓存', new Date('2026-03-01T10:00:00Z'))).toMatch(/^post-2026-03-01-[0-9a-z]{4}$/)
    expect(today(new Date('2026-03-01T23:59:00Z'))).toBe('2026-03-01')
  })
})

describe('codeBlocks', () => {
  it('returns fenced blocks in order with their language', () => {
    const page = '# T\n\n```ts title="x"\nconst a = 1\n```\n\ntext\n\n~~~\nplain\n~~~\n\n````md\n```js\nnested\n```\n````\n'
    expect(codeBlocks(page)).toEqual([
      { language: 'ts', code: 'const a = 1\n' },
      { language: '', code: 'plain\n' },
      { language: 'md', code: '```js\nnested\n```\n' },
    ])
  })
})

describe('untrusted text in front matter and links', () => {
  it('writes front-matter values as quoted YAML strings with no tag in them, which the guard accepts', () => {
    const description = 'Why <script>alert(1)</script> and {{ x }} stay text: "quoted", #hash, &a *b'
    expect(yamlString(description)).toBe('"Why ‹script>alert(1)‹/script> and {{ x }} stay text: \\"quoted\\", #hash, &a *b"')
    const page = setFrontMatterField('---\ntitle: "T"\n---\n# T\n', 'description', description)
    expect(matter(page).data.description).toBe('Why ‹script>alert(1)‹/script> and {{ x }} stay text: "quoted", #hash, &a *b')
    expect(guardContent(null, page)).toEqual({ ok: true, content: page, neutralized: [] })
    const composed = composeFrontMatter({ title: '<img src=x onerror=1>', tags: ['<b>'], description })
    expect(guardContent(null, composed)).toMatchObject({ ok: true, content: composed })
  })

  it('escapes another page’s title as a wiki-link label', () => {
    expect(wikiLinkLabel('A {{ x }} <img src=x> ]] | b\nc')).toBe('A &#123;&#123; x }} &lt;img src=x> b c')
    const line = `- [[posts/a|${wikiLinkLabel('{{ evil() }} <svg onload=1>')}]]\n`
    expect(guardContent(null, line)).toEqual({ ok: true, content: line, neutralized: [] })
  })
})
