import type { MatchTier, NameMatch, NameTable } from './name-table.js'
import { nameKey } from './wiki-syntax.js'

/** How a link finds its page. */
export type Lookup =
  | { kind: 'self' }
  | { kind: 'name'; key: string }
  | { kind: 'path'; candidates: string[] }

export interface Resolution {
  /** The page linked to; null when nothing matches (an unresolved link). */
  path: string | null
  via?: MatchTier | 'self' | 'exact-path'
  /** Pages that matched equally in the winning tier, best first, when there was more than one. */
  collidesWith?: string[]
}

/** Joins a relative path onto a folder; null if it climbs above the site root. */
function joinPath(folder: string, relative: string): string | null {
  const segments = folder ? folder.split('/') : []
  for (const segment of relative.split('/')) {
    if (segment === '' || segment === '.') continue
    if (segment === '..') {
      if (segments.length === 0) return null
      segments.pop()
    } else segments.push(segment)
  }
  return segments.join('/')
}

function folderOf(pagePath: string): string {
  const slash = pagePath.lastIndexOf('/')
  return slash === -1 ? '' : pagePath.slice(0, slash)
}

/** Candidate page files for a route-like path: 'a/' → a/index.md, 'a.html' → a.md, 'a' → a.md or a/index.md. */
function pageCandidates(sitePath: string | null, endsWithSlash: boolean): string[] {
  if (sitePath === null) return []
  if (endsWithSlash || sitePath === '') return [sitePath ? `${sitePath}/index.md` : 'index.md']
  if (sitePath.endsWith('.md')) return [sitePath]
  if (sitePath.endsWith('.html')) return [`${sitePath.slice(0, -'.html'.length)}.md`]
  return [`${sitePath}.md`, `${sitePath}/index.md`]
}

/**
 * How a link written on `fromPath` is looked up (worked out when needed rather than kept with each of a
 * big blog's links: it costs a lower-casing, and keeping it some 80 bytes a link).
 */
export const lookupOfLink = (link: { syntax: 'wiki' | 'markdown'; target: string }, fromPath: string): Lookup => lookupOf(link.syntax, link.target, fromPath)

/**
 * How a link written on `fromPath` is looked up. Wiki-links go by name (Obsidian: file name,
 * '/'-path suffix, and here also title and alias) unless they start with './' or '../'; ordinary
 * Markdown links go by path, relative to the page or, with a leading '/', to the site root.
 */
export function lookupOf(syntax: 'wiki' | 'markdown', target: string, fromPath: string): Lookup {
  if (isByName({ syntax, target })) return { kind: 'name', key: nameKey(target) }
  if (syntax === 'wiki') {
    if (!target) return { kind: 'self' }
    const joined = joinPath(folderOf(fromPath), target.normalize('NFC'))
    return { kind: 'path', candidates: joined ? [joined.endsWith('.md') ? joined : `${joined}.md`] : [] }
  }
  const absolute = target.startsWith('/')
  const joined = joinPath(absolute ? '' : folderOf(fromPath), target.normalize('NFC'))
  return { kind: 'path', candidates: pageCandidates(joined, target.endsWith('/')) }
}

/** Whether a link goes by name (a wiki-link with a target not starting with './' or '../'): its lookup is `nameKey(target)`. */
export function isByName(link: { syntax: 'wiki' | 'markdown'; target: string }): boolean {
  return link.syntax === 'wiki' && link.target !== '' && !link.target.startsWith('./') && !link.target.startsWith('../')
}

/** The one "nothing matched" resolution, shared: resolutions are never mutated, only replaced. */
export const UNRESOLVED: Resolution = { path: null }

export function resolveLookup(lookup: Lookup, fromPath: string, names: NameTable): Resolution {
  if (lookup.kind === 'self') return { path: fromPath, via: 'self' }
  if (lookup.kind === 'path') {
    const found = lookup.candidates.find((candidate) => names.paths.has(candidate))
    return found === undefined ? { path: null } : { path: found, via: 'exact-path' }
  }
  return toResolution(names.lookup(lookup.key))
}

export function toResolution(match: NameMatch | null): Resolution {
  if (!match) return { path: null }
  return match.collidesWith ? { path: match.path, via: match.tier, collidesWith: match.collidesWith } : { path: match.path, via: match.tier }
}
