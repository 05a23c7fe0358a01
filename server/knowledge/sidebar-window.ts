// A section with hundreds of pages renders a small window of them into each page, not all of them:
// pure functions on sidebar items, shared by the build, the dev server and the page (live updates, "More").
import type { DefaultTheme } from 'vitepress'
import { DEV_SIDEBAR_PATH } from '../../plugin/protocol.js'

type Item = DefaultTheme.SidebarItem

/**
 * Pages of a section rendered into a page, at most (plus the current page's neighbours). Measured on the
 * 1,000-page bench blog: each slot costs every page ~0.44 KB of HTML and page data (dist 73.5 / 74.8 /
 * 76.6 MB at 5 / 8 / 12, 66.1 MB with no sidebar, 110 MB with 100 a section); 8 keeps the sidebar's
 * share near a fifth of what a 100-entry section cost, most of it the sidebar's fixed frame and pager.
 */
export const SIDEBAR_WINDOW = 8

/** The class of a "More (N)…" entry's text; its `data-folder` and `data-src` say which folder and where its full list is. */
export const MORE_CLASS = 'metablog-sidebar-more'

export interface WindowOptions {
  /** Pages shown at most, before the current page's neighbours. Default SIDEBAR_WINDOW. */
  size?: number
  /** Where a folder's full list ('posts/deep' → a URL under the site's base) is loaded from. */
  source: (folder: string) => string
  /** The words of a "More" entry. Default "More (N)…". */
  label?: (hidden: number) => string
  /** Links shown wherever they sort (in dev: the pages the author just wrote). */
  also?: Iterable<string>
}

interface Leaves {
  links: string[]
  position: Map<string, number>
  /** Where each folder's own pages start in `links` (they are contiguous). */
  starts: Map<string, number>
}

// One walk per section: a build windows the same section for each of its pages.
const leavesCache = new WeakMap<Item[], Leaves>()

/** The section's pages in the order the pager walks them (groups' own links aside). */
function leavesOf(items: Item[]): Leaves {
  const cached = leavesCache.get(items)
  if (cached) return cached
  const links: string[] = []
  const walk = (list: Item[]) => {
    for (const item of list) {
      if (item.items) walk(item.items)
      else if (item.link) links.push(item.link)
    }
  }
  walk(items)
  const starts = new Map<string, number>()
  links.forEach((link, index) => starts.has(folderOfLink(link)) || starts.set(folderOfLink(link), index))
  const leaves = { links, position: new Map(links.map((link, index) => [link, index])), starts }
  leavesCache.set(items, leaves)
  return leaves
}

const ATTRIBUTE_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' }
const escapeAttribute = (text: string) => text.replace(/[&<>"']/g, (character) => ATTRIBUTE_ESCAPES[character]!)

/** The folder of a page link: '/posts/deep/a' → 'posts/deep'. */
export function folderOfLink(link: string): string {
  return link.slice(1, link.lastIndexOf('/'))
}

/** A "More" entry's text: its words, marked with the folder it opens and where that folder's list loads from. */
export function moreText(folder: string, source: string, words: string): string {
  return `<span class="${MORE_CLASS}" data-folder="${escapeAttribute(folder)}" data-src="${escapeAttribute(source)}">${escapeAttribute(words)}</span>`
}

/** A "More" entry: a button (no link, `items: []`) the default theme makes focusable and Enter-able. */
export function moreItem(folder: string, hidden: number, options: WindowOptions): Item {
  return { text: moreText(folder, options.source(folder), options.label?.(hidden) ?? `More (${hidden})…`), items: [] }
}

/** The words of a "More" entry in the site's language (English and Chinese built in, as the backlinks). */
export function moreLabel(lang: string | undefined): (hidden: number) => string {
  return /^zh\b/i.test(lang ?? '') ? (hidden) => `更多（${hidden}）…` : (hidden) => `More (${hidden})…`
}

/** In dev, where "More" loads a folder's full list from the dev server. */
export function devSidebarSource(folder: string): string {
  return `${DEV_SIDEBAR_PATH}?folder=${encodeURIComponent(folder)}`
}

/** Whether an item is the "More" entry of this folder. */
export function isMoreItem(item: Item, folder?: string): boolean {
  if (!item.text?.startsWith(`<span class="${MORE_CLASS}"`)) return false
  return folder === undefined || item.text.includes(` data-folder="${escapeAttribute(folder)}"`)
}

/**
 * The section as one page shows it: unchanged when it has at most `size` pages; otherwise the first
 * `size` pages (newest first), the first `size` of the current page's own folder, the current page with
 * the pages before and after it (so the pager still leads to its true neighbours), and in each folder
 * with pages left out a "More (N)…" entry.
 */
export function windowSection(items: Item[], route: string, options: WindowOptions): Item[] {
  const size = options.size ?? SIDEBAR_WINDOW
  const { links, position, starts } = leavesOf(items)
  if (links.length <= size) return items
  const shown = new Set(links.slice(0, size))
  for (const link of options.also ?? []) if (position.has(link)) shown.add(link)
  const current = position.get(route)
  if (current !== undefined) {
    for (const index of [current - 1, current, current + 1]) if (index >= 0 && index < links.length) shown.add(links[index]!)
    // In a sub-folder, its own newest pages too: what was just added where the visitor is shows.
    const folder = folderOfLink(links[current]!)
    for (let index = starts.get(folder)!, end = index + size; index < end && index < links.length && folderOfLink(links[index]!) === folder; index++) shown.add(links[index]!)
  }
  const trim = (list: Item[]): Item[] => {
    const pages: Item[] = []
    const groups: Item[] = []
    let hidden = 0
    let folder: string | undefined
    for (const item of list) {
      if (item.items) groups.push({ ...item, items: trim(item.items) })
      else if (item.link && !shown.has(item.link)) {
        hidden++
        folder ??= folderOfLink(item.link)
      } else pages.push(item)
    }
    return [...pages, ...(folder !== undefined ? [moreItem(folder, hidden, options)] : []), ...groups]
  }
  return trim(items)
}

/** The section with one folder's "More" replaced by all of its pages (what the "More" entry loads). */
export function expandFolder(items: Item[], folder: string, pages: Item[]): Item[] {
  return items.map((item) => {
    if (!item.items) return item
    if (!item.items.some((child) => isMoreItem(child, folder))) return { ...item, items: expandFolder(item.items, folder, pages) }
    return { ...item, items: [...pages, ...item.items.filter((child) => child.items && !isMoreItem(child))] }
  })
}

/** A folder's own pages in a full section (its sub-folders aside), or undefined when the section has no such folder. */
export function folderPages(items: Item[], folder: string): Item[] | undefined {
  for (const item of items) {
    if (!item.items) continue
    const pages = item.items.filter((child) => !child.items && child.link)
    if (pages.length > 0 && folderOfLink(pages[0]!.link!) === folder) return pages
    const found = folderPages(item.items, folder)
    if (found) return found
  }
  return undefined
}

/** The key of the multi-sidebar section a page shows, chosen as VitePress's default theme chooses it. */
export function sectionKeyOf(keys: Iterable<string>, relativePath: string): string | undefined {
  const route = `/${relativePath}`
  return [...keys]
    .sort((left, right) => right.split('/').length - left.split('/').length)
    .find((folder) => route.startsWith(folder.startsWith('/') ? folder : `/${folder}`))
}
