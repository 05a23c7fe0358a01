import { describe, expect, it } from 'vitest'
import { KnowledgeIndex } from '../../../../server/knowledge/knowledge-index.js'
import { markdownToText } from '../../../../server/knowledge/plain-text.js'
import { indexTerm, RankedSearch } from '../../../../server/knowledge/search-index.js'
import { makeSnippet } from '../../../../server/knowledge/snippet.js'
import { tokenize } from '../../../../server/knowledge/tokenizer.js'
import { syntheticBlog } from '../../../bench/knowledge-synthetic-blog.js'

const PAGES = {
  'posts/etags.md': '---\ntitle: Understanding ETags\ntags: [http, caching]\n---\n\n# Understanding ETags\n\nAn entity tag lets a client revalidate a cached response.\n\n## Optimistic concurrency\n\nSend If-Match with the hash you read.\n',
  'posts/streaming.md': '---\ntitle: Streaming responses\ntags: [sse]\n---\n\n# Streaming responses\n\nServer-Sent Events deliver tokens one by one. See [[etags|the caching post]].\n\n```ts\nconst reader = response.body.getReader()\n```\n',
  'zh/blog.md': '---\ntitle: 用 VitePress 搭建个人博客\ntags: [博客]\n---\n\n# 用 VitePress 搭建个人博客\n\n从零开始搭建一个个人技术博客，包括目录结构和部署。\n\n## 双向链接\n\n文章之间互相链接。\n',
  'zh/graph.md': '---\ntitle: 知识图谱\n---\n\n# 知识图谱\n\n双向链接把文章连成一张图。\n',
}

function index(): KnowledgeIndex {
  return KnowledgeIndex.build(Object.entries(PAGES).map(([path, content]) => ({ path, content })))
}

const paths = (results: { path: string }[]) => results.map((result) => result.path)

describe('tokenize', () => {
  it('splits words on anything that is not a letter or digit', () => {
    expect(tokenize("Server-Sent Events, fs.rename() & don't")).toEqual(['Server', 'Sent', 'Events', 'fs', 'rename', 'don', 't'])
  })

  it('turns CJK runs into characters and bigrams, next to Latin words', () => {
    expect(tokenize('用VitePress搭建博客')).toEqual(['用', 'VitePress', '搭', '搭建', '建', '建博', '博', '博客', '客'])
  })
})

describe('search', () => {
  it('finds pages by title, heading, text and tag, best first', () => {
    const search = index()
    expect(paths(search.search('etags'))[0]).toBe('posts/etags.md')
    expect(paths(search.search('optimistic concurrency'))).toEqual(['posts/etags.md'])
    expect(paths(search.search('caching'))).toContain('posts/etags.md')
    expect(paths(search.search('getReader'))).toEqual(['posts/streaming.md'])
  })

  it('finds Chinese text by any part of a phrase', () => {
    const search = index()
    expect(paths(search.search('个人博客'))).toEqual(['zh/blog.md'])
    expect(paths(search.search('双向链接')).sort()).toEqual(['zh/blog.md', 'zh/graph.md'])
    expect(paths(search.search('部署'))).toEqual(['zh/blog.md'])
    expect(paths(search.search('图'))).toContain('zh/graph.md')
  })

  it('matches the last word as a prefix and long words fuzzily', () => {
    const search = index()
    expect(paths(search.search('stream'))).toEqual(['posts/streaming.md'])
    expect(paths(search.search('revalidat'))).toEqual(['posts/etags.md'])
    expect(paths(search.search('concurency'))).toEqual(['posts/etags.md'])
  })

  it('needs every word, unless no page has them all', () => {
    const search = index()
    // Only the streaming post has both words (its "caching" is in a link label).
    expect(paths(search.search('tokens caching'))).toEqual(['posts/streaming.md'])
    expect(paths(search.search('tokens zzzzqqq'))).toEqual(['posts/streaming.md'])
  })

  it('answers with title, a rounded score and a snippet around the match', () => {
    const [result] = index().search('hash you read')
    expect(result).toMatchObject({ path: 'posts/etags.md', title: 'Understanding ETags' })
    expect(result!.score).toBe(Math.round(result!.score * 1000) / 1000)
    expect(result!.snippet).toContain('Send If-Match with the hash you read.')
  })

  it('returns nothing for an empty query, and at most `limit` results', () => {
    const search = index()
    expect(search.search('')).toEqual([])
    expect(search.search('  ,; ')).toEqual([])
    expect(search.search('双向链接', 1)).toHaveLength(1)
  })

  it('follows every change once built', () => {
    const search = index()
    expect(search.search('kumquat')).toEqual([])
    search.upsert('notes/fruit.md', '# Fruit\n\nA kumquat is small.')
    expect(paths(search.search('kumquat'))).toEqual(['notes/fruit.md'])
    search.upsert('notes/fruit.md', '# Fruit\n\nA lime is sour.')
    expect(search.search('kumquat')).toEqual([])
    search.rename('notes/fruit.md', 'notes/citrus.md')
    expect(paths(search.search('lime'))).toEqual(['notes/citrus.md'])
    search.remove('notes/citrus.md')
    expect(search.search('lime')).toEqual([])
  })
})

describe('plain text and snippets', () => {
  it('keeps the words a reader sees', () => {
    expect(markdownToText('## Title\n\n- **Bold** [link](./x.md) and [[page|shown]] `code`\n\n```ts\nconst a = 1\n```')).toBe(
      'Title\nBold link and shown code\nconst a = 1',
    )
  })

  it('collapses blanks and blank lines, with or without the syntax each step looks for', () => {
    expect(markdownToText('a \t b\n \n  c\t\n\n\nd  ')).toBe('a b\nc\nd')
    expect(markdownToText('one  two\tthree\n\n\n\n  four')).toBe('one two three\nfour')
    expect(markdownToText('> quoted **bold**\n>\n> more')).toBe('quoted bold\nmore')
  })

  it('cuts around the first match and marks the cuts', () => {
    const text = `${'lorem '.repeat(60)}needle here${' ipsum'.repeat(60)}`
    const snippet = makeSnippet(text, ['needle'])
    expect(snippet.startsWith('…')).toBe(true)
    expect(snippet.endsWith('…')).toBe(true)
    expect(snippet).toContain('needle here')
    expect(snippet.length).toBeLessThanOrEqual(165)
    expect(makeSnippet('short text', ['absent'])).toBe('short text')
  })
})

describe('building the search index in the background', () => {
  const queries = ['kumquat', 'fresh', 'zenlo', 'details', '的一', 'britaxis']

  function scenario() {
    const blog = syntheticBlog(700)
    const site = new Map(blog.pages.map((page) => [page.path, page.content]))
    const index = KnowledgeIndex.build(blog.pages)
    const change = (path: string, content: string | null) => {
      if (content === null) {
        site.delete(path)
        index.remove(path)
      } else {
        site.set(path, content)
        index.upsert(path, content)
      }
    }
    const fresh = () => KnowledgeIndex.build([...site].map(([path, content]) => ({ path, content })))
    return { blog, index, change, fresh }
  }

  const results = (index: KnowledgeIndex, query: string) => paths(index.search(query, 1000)).sort()

  it('applies changes made while it runs and ends up equal to a fresh build', async () => {
    const { blog, index, change, fresh } = scenario()
    const preparing = index.prepareSearch()
    change(blog.pages[0]!.path, '# Kumquat\n\nA kumquat.')
    change(blog.pages[699]!.path, null)
    await new Promise((resolve) => setImmediate(resolve))
    change('new/page.md', '# Fresh\n\nAnother kumquat.')
    change(blog.pages[1]!.path, null)
    change(blog.pages[650]!.path, '# Fresh kumquat\n')
    expect(index.prepareSearch()).toBe(preparing)
    await preparing
    const expected = fresh()
    for (const query of queries) expect(results(index, query), query).toEqual(results(expected, query))
  })

  it('a search before it finishes completes it on the spot', async () => {
    const { blog, index, change, fresh } = scenario()
    const preparing = index.prepareSearch()
    change(blog.pages[3]!.path, '# Kumquat\n')
    const early = results(index, 'kumquat')
    await preparing
    const expected = fresh()
    expect(early).toEqual(results(expected, 'kumquat'))
    for (const query of queries) expect(results(index, query), query).toEqual(results(expected, query))
  })
})

describe('the best few results', () => {
  it('are the first of what MiniSearch\'s own search gives, same scores, same order, ties included', () => {
    const engine = new RankedSearch({ fields: ['title', 'headings', 'tags', 'text'], storeFields: [] })
    // Many pages alike (equal scores) and some that differ, in an order that is not the scores'.
    const words = ['alpha', 'beta', 'gamma', 'delta']
    for (let index = 0; index < 300; index++) {
      const text = index % 3 === 0 ? 'alpha beta' : `${words[index % 4]} ${words[(index * 7) % 4]} alpha ${'filler '.repeat(index % 5)}`
      engine.add({ id: `page-${index}.md`, title: index % 11 === 0 ? 'Alpha' : 'Page', headings: '', tags: '', text })
    }
    const options = { boost: { title: 4 }, combineWith: 'AND' as const }
    for (const query of ['alpha', 'beta', 'alpha beta', 'gamma delta', 'nothing']) {
      const all = engine.search(query, options).map((result) => ({ id: result.id, score: result.score }))
      for (const limit of [1, 5, 20, 500]) {
        expect(engine.top(query, options, limit), `${query}, ${limit}`).toEqual({ hits: all.slice(0, limit), total: all.length })
      }
    }
  })
})

describe('the terms the search index files', () => {
  it('puts every CJK term under one first character, apart from every other script, and leaves the rest as processed', () => {
    const cjk = ['知识', '图', 'ひら', 'カタ', '語彙'].map(indexTerm)
    expect(new Set(cjk.map((term) => term[0])).size).toBe(1)
    expect(cjk.map((term) => term.slice(1))).toEqual(['知识', '图', 'ひら', 'カタ', '語彙'])
    const others = ['vitepress', 'Ünïcode', '2026', 'Ｆｕｌｌ'].map(indexTerm)
    expect(others).toEqual(['vitepress', 'ünïcode', '2026', 'full'])
    expect(others.some((term) => term[0] === cjk[0]![0])).toBe(false)
  })
})
