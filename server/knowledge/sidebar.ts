import { pageRoute } from './routes.js'
import type { DefaultTheme } from 'vitepress'

/** The parts of a page the sidebar reads. */
export interface SidebarPage {
  path: string
  title: string
  order?: number
  date?: string
  draft: boolean
}

export interface SidebarOptions {
  /** List drafts (marked) in the sidebar. Default true; a production build may pass false. */
  includeDrafts?: boolean
  /** Appended to a draft's title. VitePress renders sidebar text as HTML, so this may be markup. */
  draftMarker?: string
}

interface Folder {
  name: string
  path: string
  index?: SidebarPage
  pages: SidebarPage[]
  folders: Map<string, Folder>
}

const HTML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' }

/** VitePress renders sidebar text with v-html, so titles are escaped. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (character) => HTML_ESCAPES[character]!)
}

/** The route a sidebar item links to (VitePress adds the base): 'posts/foo.md' → '/posts/foo', 'posts/index.md' → '/posts/'. */
export function sidebarLink(pagePath: string): string {
  return pageRoute(pagePath, { cleanUrls: true })
}

/** Front-matter order first (lowest first), then newest date, then title, then path. */
export function comparePages(left: SidebarPage, right: SidebarPage): number {
  if (left.order !== right.order) {
    if (left.order === undefined) return 1
    if (right.order === undefined) return -1
    return left.order - right.order
  }
  if (left.date !== right.date) {
    if (left.date === undefined) return 1
    if (right.date === undefined) return -1
    return left.date < right.date ? 1 : -1
  }
  return left.title.localeCompare(right.title) || (left.path < right.path ? -1 : left.path > right.path ? 1 : 0)
}

function compareFolders(left: Folder, right: Folder): number {
  const leftOrder = left.index?.order ?? Number.POSITIVE_INFINITY
  const rightOrder = right.index?.order ?? Number.POSITIVE_INFINITY
  if (leftOrder !== rightOrder) return leftOrder - rightOrder
  return left.name < right.name ? -1 : left.name > right.name ? 1 : 0
}

function newFolder(name: string, path: string): Folder {
  return { name, path, pages: [], folders: new Map() }
}

function folderTree(pages: Iterable<SidebarPage>, includeDrafts: boolean): Folder {
  const root = newFolder('', '')
  for (const page of pages) {
    if (page.draft && !includeDrafts) continue
    const segments = page.path.split('/')
    const fileName = segments.pop()!
    let folder = root
    for (const segment of segments) {
      let child = folder.folders.get(segment)
      if (!child) folder.folders.set(segment, (child = newFolder(segment, folder.path ? `${folder.path}/${segment}` : segment)))
      folder = child
    }
    if (fileName === 'index.md') folder.index = page
    else folder.pages.push(page)
  }
  return root
}

/** Turns folders into sidebar items and groups. */
function renderer(options: SidebarOptions) {
  const draftMarker = options.draftMarker ?? ' (draft)'
  const item = (page: SidebarPage): DefaultTheme.SidebarItem => ({
    text: escapeHtml(page.title) + (page.draft ? draftMarker : ''),
    link: sidebarLink(page.path),
  })
  // Every page: a page renders only a window of a long section (see sidebar-window.ts).
  const items = (folder: Folder): DefaultTheme.SidebarItem[] => [
    ...folder.pages.sort(comparePages).map(item),
    ...[...folder.folders.values()].sort(compareFolders).map(group),
  ]
  const group = (folder: Folder): DefaultTheme.SidebarItem => ({
    text: folder.index ? item(folder.index).text : escapeHtml(folder.name),
    ...(folder.index ? { link: sidebarLink(folder.index.path) } : {}),
    collapsed: false,
    items: items(folder),
  })
  return { items, group }
}

/** Source folders become groups (the folder's index.md is the group's title and link); the root index.md, the home page, is left out. */
export function buildSidebar(pages: Iterable<SidebarPage>, options: SidebarOptions = {}): DefaultTheme.SidebarItem[] {
  return renderer(options).items(folderTree(pages, options.includeDrafts ?? true))
}

/**
 * The sidebar for a site without one: one section per top-level folder, keyed by its path, so a page
 * carries only its own folder's group (VitePress's multi-sidebar). Pages at the root get none.
 */
export function buildSections(pages: Iterable<SidebarPage>, options: SidebarOptions = {}): DefaultTheme.SidebarMulti {
  const { group } = renderer(options)
  const sections: DefaultTheme.SidebarMulti = {}
  const folders = [...folderTree(pages, options.includeDrafts ?? true).folders.values()].sort(compareFolders)
  for (const folder of folders) sections[`/${folder.path}/`] = [group(folder)]
  return sections
}
