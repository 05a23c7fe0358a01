import type { ChangeSet } from './change-set.js'
import type { DependencyKeys, NameTable } from './name-table.js'
import type { ParsedPage } from './parse-page.js'
import type { ParsedLink } from './parse-inline.js'
import { isByName, lookupOfLink, resolveLookup, type Lookup, type Resolution } from './resolver.js'
import { nameKey } from './wiki-syntax.js'

/** A parsed link with its resolution filled in. */
export type IndexedLink = ParsedLink

/** A parsed page once it is in the index: its links resolved, in place. */
export type IndexedPage = ParsedPage

function sameResolution(left: Resolution, right: Resolution): boolean {
  return left.path === right.path && left.via === right.via && String(left.collidesWith) === String(right.collidesWith)
}

function addOnce(map: Map<string, string[]>, key: string, source: string): void {
  const sources = map.get(key)
  if (!sources) map.set(key, [source])
  else if (sources[sources.length - 1] !== source) sources.push(source)
}

function removeAll(map: Map<string, string[]>, key: string, source: string): void {
  const sources = map.get(key)
  if (!sources) return
  const kept = sources.filter((item) => item !== source)
  if (kept.length === 0) map.delete(key)
  else if (kept.length !== sources.length) map.set(key, kept)
}

function isFiledUnder(lookup: Lookup, names: Set<string>, paths: Set<string>): boolean {
  if (lookup.kind === 'name') return names.has(lookup.key)
  return lookup.kind === 'path' && lookup.candidates.some((candidate) => paths.has(candidate))
}

/**
 * The link side of the index: which page each link resolves to, the reverse edges (backlinks),
 * and the dependents, reverse indexes from a name or a path to the pages with a link filed under
 * it: a page appearing or leaving can only change those links.
 */
export class LinkGraph {
  /** Links by path (Markdown links, './relative' wiki-links); links by name are filed in the NameTable. */
  private readonly pathDependents = new Map<string, string[]>()
  /** target → its sources, once per link (a multiset). Self-links are left out. */
  private readonly incoming = new Map<string, string[]>()

  /** Resolves a new page's links (in place, so the parsed page becomes the indexed one) and files them. */
  attach(page: ParsedPage, names: NameTable, changes?: ChangeSet): IndexedPage {
    const source = page.path
    for (const link of page.links) {
      // Most links go by name: filed under its key, with no lookup made for them.
      if (isByName(link)) link.resolution = names.resolveAndFile(nameKey(link.target), source)
      else {
        const lookup = lookupOfLink(link, source)
        link.resolution = resolveLookup(lookup, source, names)
        // A page's links are filed together, so "already filed" is "filed last".
        if (lookup.kind === 'path') for (const candidate of lookup.candidates) addOnce(this.pathDependents, candidate, source)
      }
      this.addEdge(source, link.resolution.path, changes)
    }
    return page
  }

  detach(page: IndexedPage, names: NameTable, changes?: ChangeSet): void {
    for (const link of page.links) {
      const lookup = lookupOfLink(link, page.path)
      if (lookup.kind === 'name') names.unfile(lookup.key, page.path)
      else if (lookup.kind === 'path') for (const candidate of lookup.candidates) removeAll(this.pathDependents, candidate, page.path)
      this.removeEdge(page.path, link.resolution.path, changes)
    }
  }

  /** Re-resolves only the links filed under `keys`: the ones a page appearing, leaving or renaming can change. */
  reresolve(keys: DependencyKeys, pages: Map<string, IndexedPage>, names: NameTable, changes: ChangeSet): void {
    const nameSet = new Set(keys.names)
    const pathSet = new Set(keys.paths)
    const sources = new Set<string>()
    for (const key of nameSet) for (const source of names.dependents(key)) sources.add(source)
    for (const key of pathSet) for (const source of this.pathDependents.get(key) ?? []) sources.add(source)
    for (const source of sources) {
      const page = pages.get(source)
      if (!page) continue
      for (const link of page.links) {
        const lookup = lookupOfLink(link, source)
        if (!isFiledUnder(lookup, nameSet, pathSet)) continue
        const next = resolveLookup(lookup, source, names)
        if (sameResolution(next, link.resolution)) continue
        if (next.path !== link.resolution.path) {
          this.removeEdge(source, link.resolution.path, changes)
          this.addEdge(source, next.path, changes)
          changes.relinked.add(source)
        }
        link.resolution = next
      }
    }
  }

  backlinks(target: string): string[] {
    return [...new Set(this.incoming.get(target))].sort()
  }

  links(target: string, source: string): boolean {
    return this.incoming.get(target)?.includes(source) ?? false
  }

  snapshot() {
    const sorted = (map: Map<string, string[]>): [string, string[]][] =>
      [...map].map(([key, values]): [string, string[]] => [key, [...values].sort()]).sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0))
    return {
      pathDependents: sorted(this.pathDependents),
      incoming: sorted(this.incoming),
    }
  }

  private addEdge(source: string, target: string | null, changes?: ChangeSet): void {
    if (target === null || target === source) return
    const sources = this.incoming.get(target)
    changes?.noteBacklink(target, source, sources?.includes(source) ?? false)
    if (sources) sources.push(source)
    else this.incoming.set(target, [source])
  }

  private removeEdge(source: string, target: string | null, changes?: ChangeSet): void {
    if (target === null || target === source) return
    const sources = this.incoming.get(target)
    if (!sources) return
    changes?.noteBacklink(target, source, true)
    const at = sources.indexOf(source)
    if (at === -1) return
    sources[at] = sources[sources.length - 1]!
    sources.pop()
    if (sources.length === 0) this.incoming.delete(target)
  }
}
