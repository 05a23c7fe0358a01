import { afterEach, describe, expect, it } from 'vitest'
import { readPageMeta } from '../../../server/knowledge/front-matter.js'
import { fileTitle, parsePageMeta } from '../../../server/page-meta.js'

const globals = globalThis as { __metablogEvaluated?: boolean }

afterEach(() => {
  delete globals.__metablogEvaluated
})

describe('parsePageMeta', () => {
  it.each(['js', 'javascript', 'JS', ' js ', 'coffee', 'json'])('never evaluates `---%s` front matter and treats the page as having none', (language) => {
    const content = `---${language}\n{ title: (globalThis.__metablogEvaluated = true, 'Evaluated') }\n---\n# Heading\n`
    for (const read of [parsePageMeta, readPageMeta]) {
      const meta = read('posts/evil.md', content)
      expect(globals.__metablogEvaluated).toBeUndefined()
      expect(meta.frontmatter).toEqual({})
      expect(meta.body).toBe(content)
      expect(meta.title).toBe('Heading')
    }
  })

  it('still reads YAML front matter, with or without the language name', () => {
    for (const opening of ['---', '---yaml', '---yml']) {
      const meta = parsePageMeta('posts/a.md', `${opening}\ntitle: From YAML\ntags: [a, b]\ndraft: true\n---\nBody\n`)
      expect(meta).toMatchObject({ title: 'From YAML', tags: ['a', 'b'], draft: true, body: 'Body\n' })
    }
  })

  it('falls back to the first heading, then the file name', () => {
    expect(parsePageMeta('posts/a.md', 'text\n# The Heading #\n').title).toBe('The Heading')
    expect(fileTitle('posts/a-post.md')).toBe('a-post')
    expect(fileTitle('guide/index.md')).toBe('guide')
    expect(fileTitle('index.md')).toBe('Home')
  })
})
