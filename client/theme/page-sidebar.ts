// The generated sidebar travels in each page's own data (its section, windowed), not in the site data every
// page inlines; a long folder's "More" entry loads the folder's full list and expands it in place.
import { dataSymbol, inBrowser, withBase, type DefaultTheme, type VitePressData } from 'vitepress'
import { computed, inject, nextTick, shallowRef, type App } from 'vue'
import { pageKnowledgeOf } from '../../plugin/protocol'
import { sidebarLink } from '../../server/knowledge/sidebar'
import { unpackSection } from '../../server/knowledge/sidebar-packing'
import { expandFolder, folderPages, MORE_CLASS, moreLabel, sectionKeyOf, windowSection } from '../../server/knowledge/sidebar-window'

type Item = DefaultTheme.SidebarItem
type Sections = Record<string, Item[] | null>

/** In dev: the full sections the server sent since the page loaded, newer than any page's own data; null: gone. */
const liveSections = shallowRef<Sections>({})
/** In dev: where a live section's "More" loads from. */
let liveSource: ((folder: string) => string) | null = null
/** In dev: the pages written since the page loaded, shown wherever they sort, so the author sees what they wrote. */
const written = new Set<string>()
/** Folders whose "More" the visitor opened, with their full lists. */
const expanded = shallowRef<Record<string, Item[]>>({})
const loaded = new Map<string, Promise<Item[]>>()
let listening = false
/**
 * Marks the items of the generated sections the pages show: the sidebar draws these itself (see
 * sidebar-item.ts). A symbol, not a set of objects: the default theme copies each item before drawing it.
 */
const GENERATED = Symbol('metablog.generated-sidebar-item')

/** True for an item of a generated sidebar section, as the theme shows it. */
export function isGeneratedItem(item: Item): boolean {
  return GENERATED in item
}

function markGenerated(items: Item[]): void {
  for (const item of items) {
    ;(item as Item & { [GENERATED]?: true })[GENERATED] = true
    if (item.items) markGenerated(item.items)
  }
}

/** Takes the dev server's changed sections (full, as `metablog:sidebar-updated` carries them); each page windows its own. */
export function applyLiveSections(sections: Sections, source: (folder: string) => string, paths: string[] = []): void {
  liveSource = source
  for (const path of paths) written.add(sidebarLink(path))
  liveSections.value = { ...liveSections.value, ...sections }
}

/** The page's section as it shows: its own, or the live one, windowed for it; opened folders in full. */
function shownSidebar(own: DefaultTheme.SidebarMulti | undefined, relativePath: string, lang: string): DefaultTheme.SidebarMulti | undefined {
  const live = liveSections.value
  const liveKey = liveSource ? sectionKeyOf(Object.keys(live), relativePath) : undefined
  let key = own ? Object.keys(own)[0] : undefined
  let section = key === undefined ? undefined : (own![key] as Item[] | undefined)
  if (liveKey !== undefined) {
    key = liveKey
    const full = live[liveKey]
    section = full ? windowSection(full, sidebarLink(relativePath), { source: liveSource!, label: moreLabel(lang), also: written }) : undefined
  }
  if (key === undefined || !Array.isArray(section)) return section === undefined ? undefined : own
  for (const [folder, pages] of Object.entries(expanded.value)) {
    const full = liveKey !== undefined ? live[liveKey] : null
    section = expandFolder(section, folder, (full && folderPages(full, folder)) ?? pages)
  }
  return { [key]: section }
}

function loadFolder(src: string): Promise<Item[]> {
  let pending = loaded.get(src)
  if (!pending) {
    // Asked as JSON: Vite's dev server answers a request that accepts HTML with the app's page.
    pending = fetch(withBase(src), { headers: { accept: 'application/json' } })
      .then((response) => (response.ok ? (response.json() as Promise<[string, string][]>) : Promise.reject(new Error(`${response.status} for ${src}`))))
      .then((entries) => entries.map(([text, link]) => ({ text, link })))
    // A failed load may be retried with the next click.
    pending.catch(() => loaded.delete(src))
    loaded.set(src, pending)
  }
  return pending
}

/** "More" clicked or pressed (Enter, Space): load the folder, show it whole, and move focus to its first page that was hidden. */
async function onMore(event: Event): Promise<void> {
  if (event instanceof KeyboardEvent && event.key !== 'Enter' && event.key !== ' ') return
  const item = (event.target as Element | null)?.closest?.('.VPSidebarItem > .item')
  const marker = item?.querySelector<HTMLElement>(`.${MORE_CLASS}`)
  if (!item || !marker) return
  event.preventDefault()
  const folder = marker.dataset.folder ?? ''
  // Queried afresh each time: the default theme renders the whole sidebar anew when its groups change.
  const links = () => [...document.querySelectorAll<HTMLAnchorElement>('.VPSidebar .VPSidebarItem > .item > a')]
  const before = new Set(links().map((link) => link.getAttribute('href')))
  try {
    const live = Object.values(liveSections.value).find((section) => section && folderPages(section, folder))
    const pages = live ? folderPages(live, folder)! : await loadFolder(marker.dataset.src ?? '')
    expanded.value = { ...expanded.value, [folder]: pages }
  } catch (error) {
    console.warn(`[metablog] could not load the rest of ${folder}: ${(error as Error).message}`)
    return
  }
  // The default theme copies the sidebar through a watcher: the new entries may render a frame later.
  for (let frame = 0; frame < 30; frame++) {
    await nextTick()
    const revealed = links().find((link) => !before.has(link.getAttribute('href')))
    if (revealed) return revealed.focus()
    await new Promise((resolve) => requestAnimationFrame(resolve))
  }
}

/**
 * Provides VitePress's data again with the page's own sidebar section, for the theme under it:
 * the default theme's sidebar and pager read `theme.sidebar`, unaware it came with the page.
 */
export function providePageSidebar(app: App): void {
  const data = app.runWithContext(() => inject<VitePressData | undefined>(dataSymbol, undefined))
  if (!data) return
  // The computed holds these three refs, not `data`: VitePress's SSR keeps some of each render's
  // closures (onContentUpdated), and through `data` they would keep its whole app alive.
  const { page, site, theme: siteTheme } = data
  const theme = computed(() => {
    const packed = pageKnowledgeOf(page.value)?.sidebar
    const section = packed && unpackSection(packed)
    const own: DefaultTheme.SidebarMulti | undefined = section && { [section.key]: section.items }
    const sidebar = shownSidebar(own, page.value.relativePath, site.value.lang)
    for (const section of Object.values(sidebar ?? {})) if (Array.isArray(section)) markGenerated(section)
    return sidebar ? { ...siteTheme.value, sidebar } : siteTheme.value
  })
  // Replaced, not provided again: Vue warns in dev when a key is provided twice.
  ;(app._context.provides as Record<symbol, unknown>)[dataSymbol as symbol] = { ...data, theme }
  if (inBrowser && !listening) {
    listening = true
    // In the capture phase: the default theme's sidebar stops clicks from bubbling (`@click.stop`).
    document.addEventListener('click', (event) => void onMore(event), true)
    document.addEventListener('keydown', (event) => void onMore(event))
  }
}
