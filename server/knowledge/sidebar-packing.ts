// A page's sidebar section travels in its page data, and a build copies that data into every bundle it
// makes of the page (two JS files a page in dist, and many strings while building). Packed, it takes
// about half the bytes of the sidebar items it stands for, and unpacks to exactly those items.
import type { DefaultTheme } from 'vitepress'
import { MORE_CLASS, moreText } from './sidebar-window.js'

type Item = DefaultTheme.SidebarItem

/** A page: [text, link], the link relative to the section's key ('a' for '/posts/a' under '/posts/'). */
type PackedPage = [text: string, link: string]
/** A folder's group: its text, link (relative), collapsed and items. */
interface PackedGroup {
  t: string
  l?: string
  c?: boolean
  i: PackedItem[]
}
/** A "More (N)…" entry: its words, its folder (relative) and where the folder's list loads from. */
interface PackedMore {
  m: string
  f: string
  s: string
}
/** An item of any other shape is carried as it is. */
export type PackedItem = PackedPage | PackedGroup | PackedMore | Item

/** One section of a multi-sidebar as a page carries it: its key, then its items. */
export type PackedSection = [key: string, ...items: PackedItem[]]

const SCHEME = /^[a-z][a-z\d+.-]*:/i
const MORE_TEXT = new RegExp(`^<span class="${MORE_CLASS}" data-folder="([^"]*)" data-src="([^"]*)">([^<]*)</span>$`)
const ENTITIES: Record<string, string> = { '&amp;': '&', '&lt;': '<', '&gt;': '>', '&quot;': '"', '&#39;': "'" }
const unescape = (text: string) => text.replace(/&(?:amp|lt|gt|quot|#39);/g, (entity) => ENTITIES[entity]!)
const hasOnly = (item: Item, keys: string[]) => Object.keys(item).every((key) => keys.includes(key))

/** A link as packed: relative to the key where it is under it, else as it was (absolute or with a scheme); undefined if neither. */
function packLink(key: string, link: string): string | undefined {
  const rest = link.startsWith(key) ? link.slice(key.length) : undefined
  if (rest !== undefined && !rest.startsWith('/') && !SCHEME.test(rest)) return rest
  return link.startsWith('/') || SCHEME.test(link) ? link : undefined
}

function unpackLink(key: string, link: string): string {
  return link.startsWith('/') || SCHEME.test(link) ? link : `${key}${link}`
}

/** A "More" entry's folder ('posts/deep') relative to the key: 'deep' under '/posts/', '' for the key's own folder. */
function packFolder(key: string, folder: string): string {
  const own = `/${folder}/`
  return own.startsWith(key) ? own.slice(key.length, -1) : `/${folder}`
}

function unpackFolder(key: string, folder: string): string {
  if (folder.startsWith('/')) return folder.slice(1)
  return folder ? `${key.slice(1)}${folder}` : key.slice(1, -1)
}

/** Packs the items of the section under `key` ('/posts/'). */
export function packSection(key: string, items: Item[]): PackedSection {
  const pack = (item: Item): PackedItem => {
    if (typeof item.text !== 'string') return item
    const more = item.items?.length === 0 && hasOnly(item, ['text', 'items']) ? MORE_TEXT.exec(item.text) : null
    if (more) {
      const [folder, source, words] = more.slice(1).map(unescape) as [string, string, string]
      const packed: PackedMore = { m: words, f: packFolder(key, folder), s: source }
      // Packed only when it unpacks to the very same text.
      if (moreText(unpackFolder(key, packed.f), packed.s, packed.m) === item.text) return packed
    }
    const link = typeof item.link === 'string' ? packLink(key, item.link) : undefined
    if (link !== undefined && !item.items && hasOnly(item, ['text', 'link'])) return [item.text, link]
    if (Array.isArray(item.items) && hasOnly(item, ['text', 'link', 'collapsed', 'items']) && (item.link === undefined || link !== undefined) && (item.collapsed === undefined || typeof item.collapsed === 'boolean')) {
      return { t: item.text, ...(link !== undefined ? { l: link } : {}), ...(item.collapsed !== undefined ? { c: item.collapsed } : {}), i: item.items.map(pack) }
    }
    return item
  }
  return [key, ...items.map(pack)]
}

/** The section's key and its items, exactly as they were packed. */
export function unpackSection([key, ...items]: PackedSection): { key: string; items: Item[] } {
  const unpack = (item: PackedItem): Item => {
    if (Array.isArray(item)) return { text: item[0], link: unpackLink(key, item[1]) }
    if ('m' in item) return { text: moreText(unpackFolder(key, item.f), item.s, item.m), items: [] }
    if ('t' in item && 'i' in item) return { text: item.t, ...(item.l !== undefined ? { link: unpackLink(key, item.l) } : {}), ...(item.c !== undefined ? { collapsed: item.c } : {}), items: item.i.map(unpack) }
    return item
  }
  return { key, items: items.map(unpack) }
}
