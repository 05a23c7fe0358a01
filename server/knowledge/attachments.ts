import { comparePaths, pathSuffixKeys } from './name-table.js'
import { isAssetTarget, nameKey } from './wiki-syntax.js'

/** How an attachment is shown when embedded. */
export type AttachmentKind = 'image' | 'audio' | 'video' | 'pdf' | 'file'

const KINDS: Record<string, AttachmentKind> = {}
for (const extension of ['png', 'jpg', 'jpeg', 'gif', 'svg', 'webp', 'avif', 'bmp', 'ico']) KINDS[extension] = 'image'
for (const extension of ['mp3', 'wav', 'ogg', 'flac', 'm4a', 'aac', 'opus']) KINDS[extension] = 'audio'
for (const extension of ['mp4', 'webm', 'mov', 'ogv', 'm4v']) KINDS[extension] = 'video'
KINDS.pdf = 'pdf'

export function attachmentKind(target: string): AttachmentKind {
  const name = target.slice(target.lastIndexOf('/') + 1)
  const dot = name.lastIndexOf('.')
  const kind = dot > 0 ? KINDS[name.slice(dot + 1).toLowerCase()] : undefined
  return kind ?? 'file'
}

/** A file of the site that `![[…]]` can embed: an attachment extension, no dot-file or dot-folder on the way. */
export function isAttachmentPath(relativePath: string): boolean {
  if (!isAssetTarget(relativePath) || relativePath.includes('\\')) return false
  return relativePath.split('/').every((segment) => segment !== '' && !segment.startsWith('.') && segment.toLowerCase() !== 'node_modules')
}

/** How an attachment link is looked up: a whole path from the site root, or a name or '/'-suffix anywhere. */
export interface AttachmentLookup {
  key: string
  exact: boolean
}

function folderOf(pagePath: string): string {
  const slash = pagePath.lastIndexOf('/')
  return slash === -1 ? '' : pagePath.slice(0, slash)
}

/** Joins './x' or '../x' onto the page's folder; null if it climbs above the site root. */
function joinRelative(folder: string, relative: string): string | null {
  const segments = folder ? folder.split('/') : []
  for (const segment of relative.split('/')) {
    if (segment === '' || segment === '.') continue
    if (segment !== '..') segments.push(segment)
    else if (segments.pop() === undefined) return null
  }
  return segments.join('/')
}

/**
 * Obsidian's rules for an attachment target written on `fromPath`: './' and '../' are relative to
 * the page, a leading '/' is the site root, anything else is a name or a path suffix anywhere.
 */
export function attachmentLookup(target: string, fromPath: string): AttachmentLookup | null {
  const trimmed = target.trim()
  if (trimmed.startsWith('./') || trimmed.startsWith('../')) {
    const joined = joinRelative(folderOf(fromPath), trimmed.normalize('NFC'))
    return joined ? { key: nameKey(joined), exact: true } : null
  }
  if (trimmed.startsWith('/')) return { key: nameKey(trimmed), exact: true }
  const key = nameKey(trimmed)
  return key ? { key, exact: false } : null
}

function insertSorted(map: Map<string, string[]>, key: string, item: string): void {
  const list = map.get(key)
  if (!list) map.set(key, [item])
  else if (!list.includes(item)) list.push(item), list.sort(comparePaths)
}

function removeItem(map: Map<string, string[]>, key: string, item: string): void {
  const list = map.get(key)
  if (!list) return
  const kept = list.filter((entry) => entry !== item)
  if (kept.length) map.set(key, kept)
  else map.delete(key)
}

/**
 * Every attachment file of the site, filed by its whole path and by every '/'-suffix (the file
 * name included), case-insensitively: a lookup is one hash lookup, the shortest path wins.
 */
export class AttachmentTable {
  private readonly files = new Set<string>()
  private readonly byPath = new Map<string, string[]>()
  private readonly bySuffix = new Map<string, string[]>()

  get size(): number {
    return this.files.size
  }

  has(relativePath: string): boolean {
    return this.files.has(relativePath)
  }

  list(): string[] {
    return [...this.files].sort()
  }

  /** Adds a file. Returns the lookup keys it can change (none when it was already there). */
  add(relativePath: string): string[] {
    if (this.files.has(relativePath)) return []
    this.files.add(relativePath)
    const keys = pathSuffixKeys(relativePath)
    insertSorted(this.byPath, keys[0]!, relativePath)
    for (const key of keys) insertSorted(this.bySuffix, key, relativePath)
    return keys
  }

  remove(relativePath: string): string[] {
    if (!this.files.delete(relativePath)) return []
    const keys = pathSuffixKeys(relativePath)
    removeItem(this.byPath, keys[0]!, relativePath)
    for (const key of keys) removeItem(this.bySuffix, key, relativePath)
    return keys
  }

  /** Exact path first, then the name or suffix anywhere; within a tier the shortest path wins. */
  resolve(lookup: AttachmentLookup | null): string | null {
    if (!lookup) return null
    const exact = this.byPath.get(lookup.key)
    if (exact) return exact[0]!
    return lookup.exact ? null : (this.bySuffix.get(lookup.key)?.[0] ?? null)
  }
}
