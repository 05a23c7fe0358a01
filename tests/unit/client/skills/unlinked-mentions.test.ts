import { describe, expect, it } from 'vitest'
import { findUnlinkedMentions, linkMentions, proseOnly } from '../../../../client/skills/unlinked-mentions'

const pages = [
  { path: 'posts/rust-traits.md', title: 'Rust Traits' },
  { path: 'posts/rust-traits-deep.md', title: 'Rust Traits in Depth' },
  { path: 'posts/cache.md', title: 'Caching' },
  { path: 'posts/go.md', title: 'Go' },
  { path: 'posts/vue.md', title: 'Vue 响应式原理' },
  { path: 'posts/zh.md', title: '缓存失效策略' },
]

const mentionsOf = (source: string, candidates = pages) =>
  findUnlinkedMentions(source, candidates).map(({ path, text }) => [path, text])

describe('findUnlinkedMentions', () => {
  it('finds a title case-insensitively and links only its first mention', () => {
    const source = 'I wrote about rust traits last week. Rust Traits again.\n'
    expect(mentionsOf(source)).toEqual([['posts/rust-traits.md', 'rust traits']])
    expect(linkMentions(source, findUnlinkedMentions(source, pages))).toBe(
      'I wrote about [[posts/rust-traits|rust traits]] last week. Rust Traits again.\n',
    )
  })

  it('matches whole words only in Latin text', () => {
    expect(mentionsOf('Precaching and Cachingly are not it.\n')).toEqual([])
    expect(mentionsOf('Read (Caching), then more.\n')).toEqual([['posts/cache.md', 'Caching']])
  })

  it('skips code spans, fences, front matter and headings', () => {
    const source = [
      '---',
      'title: "Caching"',
      '---',
      '# Caching',
      'Use `Caching` here.',
      '```md',
      'Caching in a fence',
      '```',
      '~~~',
      'Rust Traits in a tilde fence',
      '~~~',
      'Now Caching in prose.',
    ].join('\n')
    const [mention] = findUnlinkedMentions(source, pages)
    expect(findUnlinkedMentions(source, pages)).toHaveLength(1)
    expect(mention!.start).toBe(source.indexOf('Caching in prose'))
  })

  it('skips text already inside a wiki-link or a Markdown link, and link targets', () => {
    const source = 'See [[posts/cache|Caching]] and [Rust Traits](/posts/rust-traits) or ![Caching](/img.png) at https://example.com/Caching.\n'
    expect(mentionsOf(source)).toEqual([])
    expect(mentionsOf('[[Caching]] first, then Caching unlinked.\n')).toEqual([['posts/cache.md', 'Caching']])
  })

  it('prefers the longer title on the same words', () => {
    expect(mentionsOf('My Rust Traits in Depth post, and later Rust Traits.\n')).toEqual([
      ['posts/rust-traits-deep.md', 'Rust Traits in Depth'],
      ['posts/rust-traits.md', 'Rust Traits'],
    ])
  })

  it('ignores titles shorter than four characters and titles two pages share', () => {
    expect(mentionsOf('Go is a language.\n')).toEqual([])
    const twins = [
      { path: 'a.md', title: 'Notes Page' },
      { path: 'b.md', title: 'notes page' },
    ]
    expect(mentionsOf('My Notes Page.\n', twins)).toEqual([])
  })

  it('matches CJK titles as substrings, with word boundaries only on the Latin side', () => {
    expect(mentionsOf('我们讨论了缓存失效策略的细节。\n')).toEqual([['posts/zh.md', '缓存失效策略']])
    expect(mentionsOf('关于vue 响应式原理的笔记\n')).toEqual([['posts/vue.md', 'vue 响应式原理']])
    expect(mentionsOf('关于Vuex 响应式原理的笔记\n')).toEqual([])
  })

  it('does not match a title across a line break, since a label cannot hold one', () => {
    expect(mentionsOf('About Rust\nTraits.\n')).toEqual([])
  })

  it('keeps offsets into the original source', () => {
    const source = '`code` then Caching, and **Rust Traits** too.\n'
    const mentions = findUnlinkedMentions(source, pages)
    for (const mention of mentions) expect(source.slice(mention.start, mention.end)).toBe(mention.text)
    expect(linkMentions(source, mentions)).toBe('`code` then [[posts/cache|Caching]], and **[[posts/rust-traits|Rust Traits]]** too.\n')
  })
})

describe('proseOnly', () => {
  it('keeps the length and line breaks of the source', () => {
    const source = '---\na: 1\n---\n# H\n```\nx\n```\ntext `c` [l](u)\n'
    const prose = proseOnly(source)
    expect(prose).toHaveLength(source.length)
    expect(prose.split('\n')).toHaveLength(source.split('\n').length)
    expect(prose.replace(/\u0000/g, '')).toBe('\n\n\n\n\n\n\ntext  \n')
  })
})
