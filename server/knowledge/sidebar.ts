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

/** Source folders become groups (the folder's index.md is the group's title and link); the root index.md, the home page, is left out. */
export function buildSidebar(pages: Iterable<SidebarPage>, options: SidebarOptions = {}): DefaultTheme.SidebarItem[] {
  const includeDrafts = options.includeDrafts ?? true
  const draftMarker = options.draftMarker ?? ' (draft)'
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
  const item = (page: SidebarPage): DefaultTheme.SidebarItem => ({
    text: escapeHtml(page.title) + (page.draft ? draftMarker : ''),
    link: sidebarLink(page.path),
  })
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
  return items(root)
}

function linksIn(items: DefaultTheme.SidebarItem[], into: string[] = []): string[] {
  for (const item of items) {
    if (item.link) into.push((item.base ?? '') + item.link)
    if (item.items) linksIn(item.items, into)
  }
  return into
}

/** The deepest folder route all links share: ['/a/b/x', '/a/c'] → '/a/'. */
function commonFolder(links: string[]): string | undefined {
  if (links.length === 0) return undefined
  let prefix = links[0]!.slice(0, links[0]!.lastIndexOf('/') + 1)
  for (const link of links) while (!link.startsWith(prefix)) prefix = prefix.slice(0, prefix.slice(0, -1).lastIndexOf('/') + 1)
  return prefix === '/' ? undefined : prefix
}

/**
 * Merges the generated sidebar with the user's `themeConfig.sidebar`. The user's wins wherever it
 * defines the same base: with an object, its keys are kept as they are and the generated sidebar
 * only fills '/' if the user left it out; with an array (which applies everywhere), the user's items
 * come first and generated groups follow for the folders the user's items do not link into.
 */
export function mergeSidebar(generated: DefaultTheme.SidebarItem[], user: DefaultTheme.Sidebar | undefined): DefaultTheme.Sidebar {
  if (user === undefined) return generated
  if (!Array.isArray(user)) return Object.hasOwn(user, '/') ? user : { '/': generated, ...user }
  const userLinks = linksIn(user).map((link) => link.replace(/\.(?:md|html)$/, ''))
  const covered = (item: DefaultTheme.SidebarItem): boolean => {
    const folder = item.items ? (item.link ?? commonFolder(linksIn(item.items))) : undefined
    if (folder) return userLinks.some((link) => link.startsWith(folder))
    return item.link !== undefined && userLinks.includes(item.link)
  }
  return [...user, ...generated.filter((item) => !covered(item))]
}
