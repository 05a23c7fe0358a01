// An author's own sidebar stays theirs: new pages join the hand-written group that holds their folder.
import type { DefaultTheme } from 'vitepress'

/** A sidebar link as a route: 'posts/a.md' → '/posts/a', '/posts/index.html' → '/posts/'. */
export function linkRoute(link: string): string {
  const route = (link.startsWith('/') ? link : `/${link}`).replace(/[?#].*$/, '').replace(/\.(?:md|html)$/, '')
  return route.endsWith('/index') ? route.slice(0, -'index'.length) : route
}

/** The folder a route is in: '/posts/a' → '/posts/', '/posts/' → '/posts/'. */
function folderOf(route: string): string {
  return route.slice(0, route.lastIndexOf('/') + 1)
}

/** Every page link in generated items (groups with an index page link too). */
function generatedPages(items: DefaultTheme.SidebarItem[], into: DefaultTheme.SidebarItem[] = []): DefaultTheme.SidebarItem[] {
  for (const item of items) {
    if (item.link) into.push({ text: item.text, link: item.link })
    if (item.items) generatedPages(item.items, into)
  }
  return into
}

interface Scan {
  /** Routes the author's sidebar links to. */
  listed: Set<string>
  /** Folder route → the deepest hand-written group whose own pages are in that folder. */
  groups: Map<string, DefaultTheme.SidebarItem>
}

function scan(items: DefaultTheme.SidebarItem[], base: string, into: Scan): void {
  for (const item of items) {
    const itemBase = item.base ?? base
    if (item.link) into.listed.add(linkRoute(itemBase + item.link))
    if (!item.items) continue
    // Deeper groups are scanned after their parent, so they win for their folders.
    const childBase = item.base ?? base
    if (item.link) into.groups.set(folderOf(linkRoute(itemBase + item.link)), item)
    for (const child of item.items) if (child.link && !child.items) into.groups.set(folderOf(linkRoute((child.base ?? childBase) + child.link)), item)
    scan(item.items, childBase, into)
  }
}

/** Adds each page the author's items do not list to the group that holds its folder; others stay out. */
function fill(user: DefaultTheme.SidebarItem[], pages: DefaultTheme.SidebarItem[], base = ''): DefaultTheme.SidebarItem[] {
  const copy = structuredClone(user)
  const found: Scan = { listed: new Set(), groups: new Map() }
  scan(copy, base, found)
  for (const page of pages) {
    const route = linkRoute(page.link!)
    // A folder's index page is the author's to place (often in the nav): only posts are added.
    if (found.listed.has(route) || route.endsWith('/')) continue
    const group = found.groups.get(folderOf(route))
    // VitePress prepends a base to links under it: what we add is written relative to it.
    if (!group || group.base || !route.startsWith(base || '/')) continue
    group.items!.push(base ? { text: page.text, link: route.slice(base.length) } : page)
  }
  return copy
}

/**
 * The author's own sidebar, unchanged but for pages it does not list, each added to the hand-written
 * group that holds its folder; a page in no such group stays out (nothing appears that they did not design).
 */
export function mergeSidebar(generated: DefaultTheme.SidebarItem[], user: DefaultTheme.Sidebar): DefaultTheme.Sidebar {
  const pages = generatedPages(generated)
  if (Array.isArray(user)) return fill(user, pages)
  const merged: DefaultTheme.SidebarMulti = {}
  for (const [key, value] of Object.entries(user)) {
    const prefix = linkRoute(key.endsWith('/') ? key : `${key}/`)
    const own = pages.filter((page) => page.link!.startsWith(prefix))
    if (Array.isArray(value)) merged[key] = fill(value, own)
    else merged[key] = { base: value.base, items: fill(value.items, own, value.base) }
  }
  return merged
}
