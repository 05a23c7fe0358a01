import type { DefaultTheme } from 'vitepress'
import { describe, expect, it } from 'vitest'
import { buildSections, sidebarLink, type SidebarPage } from '../../../../server/knowledge/sidebar.js'
import { packSection, unpackSection } from '../../../../server/knowledge/sidebar-packing.js'
import { devSidebarSource, moreLabel, windowSection } from '../../../../server/knowledge/sidebar-window.js'

type Item = DefaultTheme.SidebarItem
const day = (index: number) => new Date(Date.UTC(2026, 0, 1) + index * 86_400_000).toISOString().slice(0, 10)
const posts = (folder: string, count: number, title = (index: number) => `P${index}`): SidebarPage[] =>
  Array.from({ length: count }, (_, index) => ({ path: `${folder}/p${index}.md`, title: title(index), date: day(index), draft: index % 7 === 3 }))

// A blog with what generated sections hold: index pages as group links, sub-folders, drafts (marked with
// HTML), titles that need escaping, Chinese, and folders long enough to get "More".
const PAGES: SidebarPage[] = [
  { path: 'posts/index.md', title: 'Posts & <notes>', draft: false },
  ...posts('posts', 30, (index) => (index % 5 === 0 ? `"Quoted" 'title' ${index} <b>` : `P${index}`)),
  ...posts('posts/deep', 12),
  ...posts('posts/deep/deeper', 3),
  ...posts('笔记', 20, (index) => `笔记 ${index}`),
  ...posts('small', 3),
]
const SECTIONS = buildSections(PAGES, { includeDrafts: true, draftMarker: ' <span class="draft">(draft)</span>' })
const source = (folder: string) => `/assets/metablog-sidebar.${folder.replace(/\W/g, '_')}.json`

/** Every page's window of its section, as a build (asset sources) and the dev server (its route, Chinese labels) cut them. */
function windows(): [string, Item[]][] {
  const found: [string, Item[]][] = []
  for (const page of PAGES) {
    const key = Object.keys(SECTIONS).find((candidate) => `/${page.path}`.startsWith(candidate))!
    const section = SECTIONS[key] as Item[]
    found.push([key, windowSection(section, sidebarLink(page.path), { source })])
    found.push([key, windowSection(section, sidebarLink(page.path), { source: devSidebarSource, label: moreLabel('zh-CN'), size: 4 })])
  }
  return found
}

describe('packSection', () => {
  it('unpacks every window of every section to exactly the items it packed', () => {
    const all = windows()
    expect(all.some(([, items]) => JSON.stringify(items).includes('metablog-sidebar-more'))).toBe(true)
    for (const [key, items] of all) {
      const unpacked = unpackSection(JSON.parse(JSON.stringify(packSection(key, items))))
      expect(unpacked.key).toBe(key)
      // Key order too: the page renders what the items say, in the same order.
      expect(JSON.stringify(unpacked.items)).toBe(JSON.stringify(items))
    }
  })

  it('takes about half the bytes of the items, links relative to the key and "More" by its parts', () => {
    const [key, items] = windows().find(([candidate, window]) => candidate === '/posts/' && JSON.stringify(window).includes('More ('))!
    const packed = JSON.stringify(packSection(key, items))
    expect(packed.length).toBeLessThan(JSON.stringify({ [key]: items }).length * 0.6)
    expect(packed).not.toContain('"/posts/p')
    expect(packed).not.toContain('<span class=\\"metablog-sidebar-more')
  })

  it('carries items of any other shape, and links it cannot make relative, as they are', () => {
    const odd: Item[] = [
      { text: 'External', link: 'https://example.com/posts/' },
      { text: 'Elsewhere', link: '/notes/a' },
      { text: 'Relative', link: 'a/b' },
      { text: 'Twice', link: '/posts//x' },
      { text: 'Scheme-like', link: '/posts/mailto:x' },
      { text: 'With rel', link: '/posts/x', rel: 'nofollow' },
      { text: 'Base', base: '/posts/', items: [{ text: 'x', link: 'x' }] },
      { items: [{ text: 'No text' }] },
      { text: '<span class="metablog-sidebar-more" data-folder="posts" data-src="/a.json">More (3)…</span>', items: [], collapsed: true },
      { text: 'Group', link: '/posts/', collapsed: true, items: [{ text: 'Home', link: '/' }] },
    ]
    const packed = JSON.parse(JSON.stringify(packSection('/posts/', odd))) as Parameters<typeof unpackSection>[0]
    expect(unpackSection(packed).items).toEqual(odd)
    // Nothing lost or added on the way, whatever the shape.
    expect(JSON.stringify(unpackSection(packed).items).length).toBe(JSON.stringify(odd).length)
  })
})
