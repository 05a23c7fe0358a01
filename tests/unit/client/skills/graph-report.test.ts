import { describe, expect, it } from 'vitest'
import type { GraphResponse } from '../../../../plugin/protocol'
import { describePageLinks, describeSite, pageLinks } from '../../../../client/skills/graph-report'

const graph: GraphResponse = {
  nodes: [
    { path: 'a.md', title: 'Page A', tags: [] },
    { path: 'b.md', title: 'Page [B]', tags: [] },
    { path: 'c.md', title: 'Page C', tags: [] },
    { path: 'lonely.md', title: 'Lonely', tags: [] },
  ],
  edges: [
    { source: 'b.md', target: 'a.md' },
    { source: 'b.md', target: 'a.md', heading: 'Intro' },
    { source: 'c.md', target: 'a.md' },
    { source: 'a.md', target: 'c.md' },
  ],
  unresolved: [
    { source: 'a.md', target: 'Missing Page' },
    { source: 'c.md', target: 'Other' },
  ],
}

describe('pageLinks', () => {
  it('lists backlinks and outgoing links once each, and the page’s own dead links', () => {
    expect(pageLinks(graph, 'a.md')).toEqual({ backlinks: ['b.md', 'c.md'], outgoing: ['c.md'], unresolved: ['Missing Page'] })
    expect(pageLinks(graph, 'lonely.md')).toEqual({ backlinks: [], outgoing: [], unresolved: [] })
  })
})

describe('describePageLinks', () => {
  it('reports them as Markdown links to the pages', () => {
    const report = describePageLinks(graph, 'a.md')
    expect(report).toContain('**Links of [Page A](/a)**')
    expect(report).toContain('2 pages link here:\n- [Page \\[B\\]](/b)\n- [Page C](/c)')
    expect(report).toContain('It links to 1 page:\n- [Page C](/c)')
    expect(report).toContain('1 link leads nowhere')
    expect(report).toContain('`[[Missing Page]]`')
  })

  it('says so when nothing links to a page', () => {
    expect(describePageLinks(graph, 'lonely.md')).toContain('No page links here yet.')
  })
})

describe('describeSite', () => {
  it('counts pages and links, and lists dead links and pages with no links', () => {
    const report = describeSite(graph)
    expect(report).toContain('4 pages, 4 links')
    expect(report).toContain('`[[Other]]` on [Page C](/c)')
    expect(report).toContain('1 page with no links in or out:\n- [Lonely](/lonely)')
  })
})
