import type { DefaultTheme } from 'vitepress'
import { describe, expect, it } from 'vitest'
import { buildSections, sidebarLink, type SidebarPage } from '../../../../server/knowledge/sidebar.js'
import { expandFolder, folderPages, isMoreItem, MORE_CLASS, moreLabel, SIDEBAR_WINDOW, windowSection } from '../../../../server/knowledge/sidebar-window.js'

type Item = DefaultTheme.SidebarItem
const source = (folder: string) => `/assets/${folder}.json`
const day = (index: number) => new Date(Date.UTC(2026, 0, 1) + index * 86_400_000).toISOString().slice(0, 10)
/** `count` posts in `folder`, p0 the oldest: the sidebar lists p{count-1} first. */
const posts = (folder: string, count: number, extra: (index: number) => Partial<SidebarPage> = () => ({})): SidebarPage[] =>
  Array.from({ length: count }, (_, index) => ({ path: `${folder}/p${index}.md`, title: `P${index}`, date: day(index), draft: false, ...extra(index) }))
const section = (pages: SidebarPage[], options = {}) => Object.values(buildSections(pages, options))[0]! as Item[]
const texts = (items: Item[]) => items.map((item) => item.text)
/** The links the default theme's pager walks, in its order. */
const flatLinks = (items: Item[]): string[] => items.flatMap((item) => [...(item.link ? [item.link] : []), ...(item.items ? flatLinks(item.items) : [])])

describe('windowSection', () => {
  it('leaves a folder of exactly the window size as it is, the same items', () => {
    const full = section(posts('posts', SIDEBAR_WINDOW))
    expect(windowSection(full, '/posts/p3', { source })).toBe(full)
    expect(JSON.stringify(windowSection(full, '/posts/p3', { source }))).not.toContain(MORE_CLASS)
  })

  it('shows the newest pages and a "More (N)…" entry when the current page is among them', () => {
    const full = section([{ path: 'posts/index.md', title: 'Posts', draft: false }, ...posts('posts', 40)])
    const [group] = windowSection(full, '/posts/p38', { source, size: 5 })
    expect(group!.link).toBe('/posts/')
    expect(texts(group!.items!).slice(0, 5)).toEqual(['P39', 'P38', 'P37', 'P36', 'P35'])
    const more = group!.items![5]!
    expect(isMoreItem(more, 'posts')).toBe(true)
    expect(more).toEqual({ text: `<span class="${MORE_CLASS}" data-folder="posts" data-src="/assets/posts.json">More (35)…</span>`, items: [] })
    expect(group!.items).toHaveLength(6)
  })

  it('adds the current page and its neighbours when it is outside the window, so the pager leads to its true neighbours', () => {
    const full = section(posts('posts', 40))
    const windowed = windowSection(full, sidebarLink('posts/p10.md'), { source, size: 5 })
    expect(texts(windowed[0]!.items!)).toEqual(['P39', 'P38', 'P37', 'P36', 'P35', 'P11', 'P10', 'P9', expect.stringContaining('More (32)…')])
    const links = flatLinks(windowed)
    expect(links[links.indexOf('/posts/p10') - 1]).toBe('/posts/p11')
    expect(links[links.indexOf('/posts/p10') + 1]).toBe('/posts/p9')
    // The last page of the window gets its next page too.
    expect(texts(windowSection(full, '/posts/p35', { source, size: 5 })[0]!.items!).slice(0, 6)).toEqual(['P39', 'P38', 'P37', 'P36', 'P35', 'P34'])
    // The oldest page has no page after it.
    expect(texts(windowSection(full, '/posts/p0', { source, size: 5 })[0]!.items!).slice(5, 7)).toEqual(['P1', 'P0'])
  })

  it('windows the whole section across its sub-folders, each folder with its own "More"', () => {
    const full = section([...posts('posts', 20), ...posts('posts/deep', 6)])
    const [group] = windowSection(full, '/posts/deep/p2', { source, size: 4 })
    expect(texts(group!.items!)).toEqual(['P19', 'P18', 'P17', 'P16', expect.stringContaining('More (16)…'), 'deep'])
    const deep = group!.items!.at(-1)!
    // The page's own folder shows its newest pages too, with the page and its neighbours.
    expect(texts(deep.items!)).toEqual(['P5', 'P4', 'P3', 'P2', 'P1', expect.stringContaining('data-folder="posts/deep"')])
    expect(deep.items!.at(-1)!.text).toContain('More (1)…')
    // A page of the top folder leaves the sub-folder closed behind its More.
    const fromTop = windowSection(full, '/posts/p19', { source, size: 4 })[0]!.items!.at(-1)!
    expect(texts(fromTop.items!)).toEqual([expect.stringContaining('More (6)…')])
  })

  it('shows the links it is asked to wherever they sort (in dev, the pages just written)', () => {
    const full = section(posts('posts', 40, (index) => (index >= 30 ? { order: index } : {})))
    const windowed = windowSection(full, '/posts/', { source, size: 4, also: ['/posts/p20', '/posts/nowhere'] })
    expect(texts(windowed[0]!.items!)).toEqual(['P30', 'P31', 'P32', 'P33', 'P20', expect.stringContaining('More (35)…')])
  })

  it('counts only what the section lists: drafts left out of a build do not make it longer', () => {
    const pages = posts('posts', 8, (index) => ({ draft: index >= 4 }))
    const published = section(pages, { includeDrafts: false })
    expect(windowSection(published, '/posts/p1', { source, size: 4 })).toBe(published)
    const withDrafts = windowSection(section(pages), '/posts/p1', { source, size: 4 })
    expect(texts(withDrafts[0]!.items!).slice(0, 4)).toEqual(['P7 (draft)', 'P6 (draft)', 'P5 (draft)', 'P4 (draft)'])
  })

  it('says "More" in the site\'s language, English unless Chinese', () => {
    expect(moreLabel('zh-CN')(7)).toBe('更多（7）…')
    expect(moreLabel('zh')(7)).toBe('更多（7）…')
    expect(moreLabel('en-US')(7)).toBe('More (7)…')
    expect(moreLabel(undefined)(7)).toBe('More (7)…')
  })

  it('keeps Chinese titles and folder names readable, and escapes what would break the markup', () => {
    const pages: SidebarPage[] = Array.from({ length: 6 }, (_, index) => ({ path: `笔记/第${index}篇.md`, title: `知识图谱 ${index} <b>`, date: day(index), draft: false }))
    const windowed = windowSection(section(pages), sidebarLink('笔记/第0篇.md'), { source, size: 2, label: moreLabel('zh-CN') })
    const items = windowed[0]!.items!
    expect(texts(items)).toEqual(['知识图谱 5 &lt;b&gt;', '知识图谱 4 &lt;b&gt;', '知识图谱 1 &lt;b&gt;', '知识图谱 0 &lt;b&gt;', expect.stringContaining('更多（2）…')])
    expect(items.at(-1)!.text).toContain('data-folder="笔记" data-src="/assets/笔记.json"')
  })
})

describe('expandFolder and folderPages', () => {
  it('replace a folder\'s "More" by every one of its pages, in order, keeping its sub-folders', () => {
    const full = section([...posts('posts', 20), ...posts('posts/deep', 6)])
    const windowed = windowSection(full, '/posts/p3', { source, size: 4 })
    const all = folderPages(full, 'posts')!
    expect(all).toHaveLength(20)
    const [group] = expandFolder(windowed, 'posts', all)
    expect(texts(group!.items!)).toEqual([...all.map((page) => page.text), 'deep'])
    expect(group!.items!.at(-1)!.items!.some((item) => isMoreItem(item, 'posts/deep'))).toBe(true)
    expect(folderPages(full, 'posts/deep')!.map((page) => page.link)).toEqual(['/posts/deep/p5', '/posts/deep/p4', '/posts/deep/p3', '/posts/deep/p2', '/posts/deep/p1', '/posts/deep/p0'])
    expect(folderPages(full, 'elsewhere')).toBeUndefined()
  })
})
