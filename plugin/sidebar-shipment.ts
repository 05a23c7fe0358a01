// The generated sidebar as pages carry it: each page its own section, windowed; a long folder's full
// list behind its "More" entry, as a JSON asset in a build and from the dev server in dev.
import { createHash } from 'node:crypto'
import type { DefaultTheme } from 'vitepress'
import { sidebarLink } from '../server/knowledge/sidebar.js'
import { packSection } from '../server/knowledge/sidebar-packing.js'
import { folderOfLink, moreLabel, sectionKeyOf, SIDEBAR_WINDOW, windowSection, type WindowOptions } from '../server/knowledge/sidebar-window.js'
import type { PageKnowledge } from './protocol.js'

type Item = DefaultTheme.SidebarItem

/** A folder's pages as "More" loads them: [text, link] pairs, a third the size of sidebar items. */
export function folderEntries(pages: Item[]): [string, string][] {
  return pages.map((page) => [page.text ?? '', page.link ?? ''])
}

/** Every folder of a section with its own pages, in order. */
function foldersOf(items: Item[], into = new Map<string, Item[]>()): Map<string, Item[]> {
  for (const item of items) {
    if (!item.items) continue
    const pages = item.items.filter((child) => !child.items && child.link)
    if (pages.length > 0) into.set(folderOfLink(pages[0]!.link!), pages)
    foldersOf(item.items, into)
  }
  return into
}

const leafCount = (items: Item[]): number => items.reduce((count, item) => count + (item.items ? leafCount(item.items) : item.link ? 1 : 0), 0)

/** The one section a page shows, windowed for that page and packed with its multi-sidebar key; undefined for pages in none. */
export function pageSection(sections: DefaultTheme.SidebarMulti, relativePath: string, options: WindowOptions): PageKnowledge['sidebar'] {
  const key = sectionKeyOf(Object.keys(sections), relativePath)
  const section = key === undefined ? undefined : sections[key]
  // Generated sections are lists of groups: the `{ base, items }` form is never among them.
  return Array.isArray(section) ? packSection(key!, windowSection(section, sidebarLink(relativePath), options)) : undefined
}

export interface SidebarShipment {
  /** The JSON assets a build emits: one per folder of each section longer than the window. O(pages) in all. */
  assets: { fileName: string; source: string }[]
  /** The page's own section, windowed, with "More" pointing at the assets. */
  section: (relativePath: string) => PageKnowledge['sidebar']
}

/** What a build ships of the generated sidebar, worked out once from the full sections. */
export function createSidebarShipment(sections: DefaultTheme.SidebarMulti, assetsDir: string, lang?: string): SidebarShipment {
  const folder = assetsDir.replace(/^\/+|\/+$/g, '')
  const files = new Map<string, { fileName: string; source: string }>()
  for (const section of Object.values(sections)) {
    if (!Array.isArray(section) || leafCount(section) <= SIDEBAR_WINDOW) continue
    for (const [path, pages] of foldersOf(section)) {
      const source = JSON.stringify(folderEntries(pages))
      const hash = createHash('sha256').update(source).digest('base64url').slice(0, 8)
      files.set(path, { fileName: `${folder}/metablog-sidebar.${hash}.json`, source })
    }
  }
  const source = (path: string) => `/${files.get(path)?.fileName ?? ''}`
  const options = { source, label: moreLabel(lang) }
  return { assets: [...files.values()], section: (relativePath) => pageSection(sections, relativePath, options) }
}
