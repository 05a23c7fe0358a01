import type { DefaultTheme } from 'vitepress'
import { describe, expect, it } from 'vitest'
import { KnowledgeIndex } from '../../../../server/knowledge/knowledge-index.js'
import { buildSidebar, mergeSidebar, sidebarLink, type SidebarPage } from '../../../../server/knowledge/sidebar.js'

const entry = (path: string, title: string, extra: Partial<SidebarPage> = {}): SidebarPage => ({ path, title, draft: false, ...extra })

describe('buildSidebar', () => {
  it('makes a group per folder, titled and linked by its index page; the home page is left out', () => {
    const sidebar = buildSidebar([
      entry('index.md', 'Home'),
      entry('about.md', 'About'),
      entry('posts/index.md', 'All posts'),
      entry('posts/b.md', 'B post', { date: '2026-01-01' }),
      entry('posts/a.md', 'A post', { date: '2026-03-01' }),
      entry('notes/x.md', 'X'),
    ])
    expect(sidebar).toEqual([
      { text: 'About', link: '/about' },
      { text: 'notes', collapsed: false, items: [{ text: 'X', link: '/notes/x' }] },
      {
        text: 'All posts',
        link: '/posts/',
        collapsed: false,
        items: [
          { text: 'A post', link: '/posts/a' },
          { text: 'B post', link: '/posts/b' },
        ],
      },
    ])
  })

  it('orders by front-matter order, then newest date, then title; sub-folders after pages', () => {
    const sidebar = buildSidebar([
      entry('f/dated-old.md', 'Old', { date: '2025-01-01' }),
      entry('f/undated-b.md', 'b undated'),
      entry('f/ordered-2.md', 'Second', { order: 2 }),
      entry('f/sub/index.md', 'Sub', { order: 1 }),
      entry('f/sub/page.md', 'Sub page'),
      entry('f/undated-a.md', 'a undated'),
      entry('f/dated-new.md', 'New', { date: '2026-01-01' }),
      entry('f/ordered-1.md', 'First', { order: 1 }),
      entry('f/other/page.md', 'Other page'),
    ])
    const group = sidebar[0]!
    expect(group.items!.map((item) => item.text)).toEqual(['First', 'Second', 'New', 'Old', 'a undated', 'b undated', 'Sub', 'other'])
    expect(group.items![6]).toEqual({ text: 'Sub', link: '/f/sub/', collapsed: false, items: [{ text: 'Sub page', link: '/f/sub/page' }] })
  })

  it('marks drafts, or leaves them out, and escapes titles (VitePress renders them as HTML)', () => {
    const pages = [entry('a.md', 'Fish & <Chips>'), entry('b.md', 'Work in progress', { draft: true })]
    expect(buildSidebar(pages)).toEqual([
      { text: 'Fish &amp; &lt;Chips&gt;', link: '/a' },
      { text: 'Work in progress (draft)', link: '/b' },
    ])
    expect(buildSidebar(pages, { includeDrafts: false })).toHaveLength(1)
    expect(buildSidebar(pages, { draftMarker: ' <span class="draft">draft</span>' })[1]!.text).toBe('Work in progress <span class="draft">draft</span>')
  })

  it('is what the index gives from front matter', () => {
    const index = KnowledgeIndex.build([
      { path: 'posts/a.md', content: '---\ntitle: Alpha\norder: 2\n---\n' },
      { path: 'posts/b.md', content: '---\ntitle: Beta\norder: 1\ndraft: true\n---\n' },
    ])
    expect(index.sidebar()).toEqual([
      {
        text: 'posts',
        collapsed: false,
        items: [
          { text: 'Beta (draft)', link: '/posts/b' },
          { text: 'Alpha', link: '/posts/a' },
        ],
      },
    ])
  })

  it('links routes without extensions', () => {
    expect(sidebarLink('index.md')).toBe('/')
    expect(sidebarLink('posts/index.md')).toBe('/posts/')
    expect(sidebarLink('posts/my-page.md')).toBe('/posts/my-page')
  })
})

describe('mergeSidebar', () => {
  const generated: DefaultTheme.SidebarItem[] = [
    { text: 'About', link: '/about' },
    { text: 'Posts', link: '/posts/', collapsed: false, items: [{ text: 'A', link: '/posts/a' }] },
    { text: 'notes', collapsed: false, items: [{ text: 'N', link: '/notes/n' }, { text: 'M', link: '/notes/m' }] },
  ]

  it('uses the generated sidebar when the user has none', () => {
    expect(mergeSidebar(generated, undefined)).toBe(generated)
  })

  it("keeps the user's bases as they are and fills '/' if the user left it out", () => {
    const user: DefaultTheme.SidebarMulti = { '/guide/': [{ text: 'Guide', link: '/guide/' }] }
    expect(mergeSidebar(generated, user)).toEqual({ '/': generated, '/guide/': user['/guide/'] })
    const withRoot: DefaultTheme.SidebarMulti = { '/': [{ text: 'Mine', link: '/mine' }] }
    expect(mergeSidebar(generated, withRoot)).toBe(withRoot)
  })

  it("puts the user's array first and adds generated groups for folders it does not cover", () => {
    const user: DefaultTheme.SidebarItem[] = [{ text: 'My posts', items: [{ text: 'A', link: '/posts/a.md' }] }, { text: 'About me', link: '/about' }]
    expect(mergeSidebar(generated, user)).toEqual([...user, generated[2]])
  })
})
