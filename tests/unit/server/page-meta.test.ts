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

  it('reads front matter whose YAML aliases would expand to gigabytes as if it had none', () => {
    const levels = ['a: &a ["lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol"]']
    for (let level = 1; level < 9; level++) {
      const previous = String.fromCharCode(96 + level)
      levels.push(`${String.fromCharCode(97 + level)}: &${String.fromCharCode(97 + level)} [${Array(9).fill(`*${previous}`).join(', ')}]`)
    }
    const content = `---\n${levels.join('\n')}\ntags: *i\naliases: *i\ntitle: Bomb\n---\n# Heading\n`
    const meta = parsePageMeta('posts/bomb.md', content)
    expect(meta).toMatchObject({ title: 'Heading', tags: [], aliases: [], frontmatter: {} })
  })

  it('keeps only plain values in tags and aliases', () => {
    const meta = parsePageMeta('posts/a.md', '---\ntags: [one, 2, {x: 1}, [nested]]\naliases: [A, true]\n---\n')
    expect(meta.tags).toEqual(['one', '2'])
    expect(meta.aliases).toEqual(['A'])
  })

  it('takes the title from the first heading in linear time, without closing hashes', () => {
    expect(parsePageMeta('posts/a.md', '# C# in depth ##\n').title).toBe('C# in depth')
    expect(parsePageMeta('posts/a.md', '#\nnot a heading\n# Real\n').title).toBe('Real')
    // A regular expression with adjacent blank runs took minutes on this; by hand it is instant.
    const long = `# a${' '.repeat(200_000)}b\n`
    expect(parsePageMeta('posts/a.md', long).title).toBe(`a${' '.repeat(200_000)}b`)
  })

  it('never takes a title from a fenced code block: first real heading, then front matter, then the file name', () => {
    const shell = '```bash\n# install the tools\nnpm i\n```\n'
    expect(parsePageMeta('posts/setup.md', `${shell}\n# 安装指南\n`).title).toBe('安装指南')
    expect(parsePageMeta('posts/setup.md', `---\ntitle: From YAML\n---\n${shell}`).title).toBe('From YAML')
    expect(parsePageMeta('posts/setup.md', `---\ntitle: From YAML\n---\n# From heading\n`).title).toBe('From heading')
    expect(parsePageMeta('posts/setup.md', '~~~~\n# a\n~~~\n# still code\n~~~~\n').title).toBe('setup')
    // An unclosed fence runs to the end of the page; an inline ```code``` line opens none.
    expect(parsePageMeta('posts/setup.md', '```\n# code\n').title).toBe('setup')
    expect(parsePageMeta('posts/setup.md', '``` a ` b\n# Real\n').title).toBe('Real')
    expect(parsePageMeta('posts/setup.md', '    # indented code\n# Real\n').title).toBe('Real')
  })
})
