import { describe, expect, it } from 'vitest'
import { backlinksOf, neighbourhood } from '../../../client/knowledge/graph-neighbourhood.js'
import { decodePageLinks } from '../../../client/knowledge/page-links.js'
import { decodeGraph } from '../../../client/knowledge/graph-asset.js'
import { encodeGraph, graphAsset } from '../../../plugin/graph-asset.js'
import { createGraphSlices } from '../../../plugin/page-knowledge.js'
import { pageKnowledgeOf, shipPageKnowledge, type GraphResponse, type PageKnowledge } from '../../../plugin/protocol.js'

const node = (path: string) => ({ path, title: path.replace(/\.md$/, ''), tags: path.startsWith('posts/') ? ['post'] : [] })

// a → b, c → b, b → d, d → e (e only reached through d), a ↔ c, b links to itself.
const GRAPH: GraphResponse = {
  nodes: ['posts/a.md', 'posts/b.md', 'posts/c.md', 'notes/d.md', 'notes/e.md', 'lonely.md'].map(node),
  edges: [
    { source: 'posts/a.md', target: 'posts/b.md' },
    { source: 'posts/a.md', target: 'posts/c.md', heading: 'Intro' },
    { source: 'posts/b.md', target: 'posts/b.md' },
    { source: 'posts/b.md', target: 'notes/d.md' },
    { source: 'posts/c.md', target: 'posts/a.md' },
    { source: 'posts/c.md', target: 'posts/b.md' },
    { source: 'notes/d.md', target: 'notes/e.md' },
  ],
  unresolved: [
    { source: 'posts/b.md', target: 'Missing' },
    { source: 'notes/e.md', target: 'chart.png', kind: 'attachment' },
  ],
}

describe('createGraphSlices', () => {
  const slice = createGraphSlices(GRAPH)
  // What the page reads: the client's own neighbourhood without what a build's page never shows.
  const shown = (path: string): GraphResponse => {
    const near = neighbourhood(GRAPH, path)
    return { nodes: near.nodes.map((entry) => ({ ...entry, tags: [] })), edges: near.edges.map(({ source, target }) => ({ source, target })), unresolved: [] }
  }

  it('gives a linked-to page, decoded, the neighbourhood the client cuts from the whole graph', () => {
    for (const path of ['posts/a.md', 'posts/b.md', 'posts/c.md', 'notes/d.md', 'notes/e.md']) expect(decodePageLinks(slice(path)!), path).toEqual(shown(path))
  })

  it('gives "Linked from" the same pages, titles and order as the whole graph does', () => {
    for (const path of ['posts/a.md', 'posts/b.md', 'notes/d.md']) expect(backlinksOf(decodePageLinks(slice(path)!), path), path).toEqual(backlinksOf(GRAPH, path))
    expect(backlinksOf(decodePageLinks(slice('posts/b.md')!), 'posts/b.md').map((link) => link.path)).toEqual(['posts/a.md', 'posts/c.md'])
  })

  it('gives nothing to a page no other page links to, nor to a page outside the graph', () => {
    // lonely.md has no links at all; a page linking only to itself has no backlinks either.
    expect(slice('lonely.md')).toBeUndefined()
    expect(slice('posts/draft.md')).toBeUndefined()
    expect(createGraphSlices({ nodes: [node('x.md')], edges: [{ source: 'x.md', target: 'x.md' }], unresolved: [] })('x.md')).toBeUndefined()
  })

  it('keeps a slice to the page and its neighbours, each path once, links as index pairs', () => {
    const b = slice('posts/b.md')!
    expect(b.nodes).toEqual([
      ['posts/a.md', 'posts/a'],
      ['posts/b.md', 'posts/b'],
      ['posts/c.md', 'posts/c'],
      ['notes/d.md', 'notes/d'],
    ])
    // a→b, a→c, b→b, b→d, c→a, c→b; d→e leaves the neighbourhood.
    expect(b.edges).toEqual([[0, 1], [0, 2], [1, 1], [1, 3], [2, 0], [2, 1]])
  })

  it('carries no tags, headings or unresolved links: a build never shows them under a page', () => {
    const text = JSON.stringify(slice('posts/b.md'))
    expect(text).not.toContain('post"]')
    expect(text).not.toContain('Missing')
    expect(JSON.stringify(slice('posts/c.md'))).not.toContain('Intro')
    expect(Object.keys(slice('posts/b.md')!).sort()).toEqual(['edges', 'nodes'])
  })
})

describe('the graph asset', () => {
  it('decodes to the graph it encoded, headings and attachment links included', () => {
    expect(decodeGraph(encodeGraph(GRAPH))).toEqual(GRAPH)
  })

  it('stores each path once and edges as index pairs', () => {
    const compact = encodeGraph(GRAPH)
    expect(compact.edges[0]).toEqual([0, 1])
    expect(compact.edges[1]).toEqual([0, 2, 'Intro'])
    expect(compact.unresolved[1]).toEqual([4, 'chart.png', 'attachment'])
  })

  it('is named by its content under the assets folder', () => {
    const first = graphAsset(GRAPH, 'assets')
    expect(first.fileName).toMatch(/^assets\/metablog-graph\.[\w-]{8}\.json$/)
    expect(graphAsset(GRAPH, '/assets/').fileName).toBe(first.fileName)
    expect(graphAsset({ ...GRAPH, edges: GRAPH.edges.slice(1) }, 'assets').fileName).not.toBe(first.fileName)
  })

  it('refuses an edge to a page that is not a node', () => {
    expect(() => encodeGraph({ nodes: [node('a.md')], edges: [{ source: 'a.md', target: 'gone.md' }], unresolved: [] })).toThrow(/gone\.md/)
  })
})

describe("a page's own knowledge as it ships", () => {
  const knowledge: PageKnowledge = {
    sidebar: ['/posts/', { t: 'Posts "quoted" `ticked` it\'s', c: false, i: [['Dön\'t \\ panic 伽马 "x"', 'p1'], ['`code` title', 'p2']] }] as unknown as PageKnowledge['sidebar'],
    links: { nodes: [['posts/a "b".md', 'A `b` "c"'], ['posts/c.md', 'C\\']], edges: [[0, 1]] },
  }

  it('comes back as it went, through quotes, backquotes, apostrophes, backslashes and CJK', () => {
    const shipped = shipPageKnowledge(knowledge)
    expect(pageKnowledgeOf({ metablog: shipped })).toEqual(knowledge)
    // Once more after another page: the kept last one is never stale.
    expect(pageKnowledgeOf({ metablog: shipPageKnowledge({ links: { nodes: [], edges: [] } }) })).toEqual({ links: { nodes: [], edges: [] } })
    expect(pageKnowledgeOf({ metablog: shipped })).toEqual(knowledge)
  })

  it('has no double quote where the titles have no backquote, so VitePress escapes none of it', () => {
    const plain: PageKnowledge = { links: { nodes: [['posts/a.md', 'A title'], ['posts/b.md', 'It\'s B']], edges: [[1, 0]] } }
    expect(shipPageKnowledge(plain)).not.toContain('"')
    expect(JSON.stringify(shipPageKnowledge(plain)).slice(1, -1)).not.toContain('\\"')
  })

  it('is nothing for a page without it', () => {
    expect(pageKnowledgeOf({})).toBeUndefined()
    expect(pageKnowledgeOf({ metablog: undefined })).toBeUndefined()
  })
})
