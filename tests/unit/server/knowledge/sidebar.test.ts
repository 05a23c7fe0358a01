import type { DefaultTheme } from 'vitepress'
import { describe, expect, it } from 'vitest'
import { KnowledgeIndex } from '../../../../server/knowledge/knowledge-index.js'
import { mergeSidebar } from '../../../../server/knowledge/sidebar-merge.js'
import { buildSections, buildSidebar, sidebarLink, type SidebarPage } from '../../../../server/knowledge/sidebar.js'

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

describe('buildSections', () => {
  it('gives each top-level folder its own section, so a page carries only its folder; root pages get none', () => {
    const sections = buildSections([
      entry('index.md', 'Home'),
      entry('about.md', 'About'),
      entry('posts/index.md', 'All posts'),
      entry('posts/a.md', 'A post'),
      entry('posts/deep/x.md', 'X'),
      entry('notes/n.md', 'N'),
    ])
    expect(Object.keys(sections)).toEqual(['/notes/', '/posts/'])
    expect(sections['/notes/']).toEqual([{ text: 'notes', collapsed: false, items: [{ text: 'N', link: '/notes/n' }] }])
    expect(sections['/posts/']).toEqual([
      {
        text: 'All posts',
        link: '/posts/',
        collapsed: false,
        items: [{ text: 'A post', link: '/posts/a' }, { text: 'deep', collapsed: false, items: [{ text: 'X', link: '/posts/deep/x' }] }],
      },
    ])
    expect(JSON.stringify(sections)).not.toContain('/about')
  })
})

describe('a folder with many pages', () => {
  it('lists every page, newest first: a page windows its own section (sidebar-window.ts)', () => {
    const pages = [entry('posts/index.md', 'Posts'), ...Array.from({ length: 8 }, (_, day) => entry(`posts/p${day}.md`, `P${day}`, { date: `2026-01-0${day + 1}` }))]
    const [group] = buildSections(pages)['/posts/']!
    expect(group!.items!.map((item) => item.text)).toEqual(['P7', 'P6', 'P5', 'P4', 'P3', 'P2', 'P1', 'P0'])
  })
})

describe('mergeSidebar', () => {
  const generated: DefaultTheme.SidebarItem[] = [
    { text: 'About', link: '/about' },
    { text: 'Posts', link: '/posts/', collapsed: false, items: [{ text: 'A', link: '/posts/a' }, { text: 'New', link: '/posts/new' }] },
    { text: 'notes', collapsed: false, items: [{ text: 'N', link: '/notes/n' }, { text: 'M', link: '/notes/m' }] },
  ]

  it("adds a new page to the hand-written group that holds its folder, and nothing else, in an array", () => {
    const user: DefaultTheme.SidebarItem[] = [
      { text: 'My posts', items: [{ text: 'A', link: '/posts/a.md' }] },
      { text: 'About me', link: '/about' },
    ]
    const merged = mergeSidebar(generated, user) as DefaultTheme.SidebarItem[]
    expect(merged).toEqual([
      { text: 'My posts', items: [{ text: 'A', link: '/posts/a.md' }, { text: 'New', link: '/posts/new' }] },
      { text: 'About me', link: '/about' },
    ])
    // The author's own object is left as it was: a later refresh starts from it again.
    expect(user[0]!.items).toHaveLength(1)
  })

  it("keeps a multi-sidebar's keys and adds pages only under the key and group that hold them", () => {
    const user: DefaultTheme.SidebarMulti = {
      '/notes/': [{ text: '笔记', items: [{ text: 'N', link: 'notes/n' }] }],
      '/guide/': [{ text: 'Guide', link: '/guide/' }],
    }
    expect(mergeSidebar(generated, user)).toEqual({
      '/notes/': [{ text: '笔记', items: [{ text: 'N', link: 'notes/n' }, { text: 'M', link: '/notes/m' }] }],
      '/guide/': [{ text: 'Guide', link: '/guide/' }],
    })
  })

  it('writes an added link relative to a section base', () => {
    const user: DefaultTheme.SidebarMulti = { '/posts/': { base: '/posts/', items: [{ text: 'Mine', items: [{ text: 'A', link: 'a' }] }] } }
    expect(mergeSidebar(generated, user)).toEqual({
      '/posts/': { base: '/posts/', items: [{ text: 'Mine', items: [{ text: 'A', link: 'a' }, { text: 'New', link: 'new' }] }] },
    })
  })
})
