import { describe, expect, it } from 'vitest'
import { normalizeBase, pageRoute, routeOf } from '../../../../server/knowledge/routes.js'
import { slugify } from '../../../../server/knowledge/slug.js'

describe('pageRoute', () => {
  it.each([
    ['index.md', {}, '/'],
    ['posts/index.md', {}, '/posts/'],
    ['posts/foo.md', {}, '/posts/foo.html'],
    ['posts/foo.md', { cleanUrls: true }, '/posts/foo'],
    ['posts/foo.md', { cleanUrls: true, base: '/blog/' }, '/blog/posts/foo'],
    ['index.md', { base: 'blog' }, '/blog/'],
    ['zh/知识 图谱.md', { cleanUrls: true }, '/zh/知识%20图谱'],
    ['a/b#c?.md', { cleanUrls: true }, '/a/b%23c%3F'],
  ] as const)('%s %j → %s', (pagePath, options, route) => {
    expect(pageRoute(pagePath, options)).toBe(route)
  })

  it('normalizes the base', () => {
    expect(normalizeBase()).toBe('/')
    expect(normalizeBase('blog')).toBe('/blog/')
    expect(normalizeBase('/blog/')).toBe('/blog/')
  })
})

describe('slugify (VitePress heading ids)', () => {
  it.each([
    ['Parsing the stream', 'parsing-the-stream'],
    ['什么是双向链接', '什么是双向链接'],
    ['Why rename is atomic?', 'why-rename-is-atomic'],
    ['ETag & If-Match', 'etag-if-match'],
    ['1. First', '_1-first'],
    ['Émigré café', 'emigre-cafe'],
    ['“Quoted” — words', 'quoted-—-words'],
  ])('%s → %s', (heading, slug) => {
    expect(slugify(heading)).toBe(slug)
  })
})

describe('routeOf', () => {
  it('maps page paths to the routes the router goes to, without the base', () => {
    expect(routeOf('posts/a.md')).toBe('/posts/a')
    expect(routeOf('posts/index.md')).toBe('/posts/')
    expect(routeOf('index.md')).toBe('/')
    expect(routeOf('my-index.md')).toBe('/my-index')
  })

  it('encodes what would end the path of an href (a page about C# is reached, not its fragment)', () => {
    expect(routeOf('notes/C#.md')).toBe('/notes/C%23')
    expect(routeOf('notes/why?.md')).toBe('/notes/why%3F')
    expect(routeOf('zh/知识 图谱.md')).toBe('/zh/知识%20图谱')
  })
})
