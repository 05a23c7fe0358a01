import { toResolution, type Resolution } from './resolver.js'
import { nameKey } from './wiki-syntax.js'

/** The names a page can be linked by. */
export interface NamedPage {
  path: string
  title: string
  aliases: string[]
}

/** Which name matched: the file path (or a '/'-suffix of it, the file name included), the title, an alias. */
export type MatchTier = 'path' | 'title' | 'alias'

export interface NameMatch {
  tier: MatchTier
  /** The chosen page: the shortest path among the tier's candidates. */
  path: string
  /** Every page that matched in that tier, best first, when there was more than one. */
  collidesWith?: string[]
}

/** Path suffixes at '/' boundaries, as name keys: 'posts/Foo Bar.md' → ['posts/foo bar', 'foo bar']. */
export function pathSuffixKeys(pagePath: string): string[] {
  const key = nameKey(pagePath)
  const keys = [key]
  for (let slash = key.indexOf('/'); slash !== -1; slash = key.indexOf('/', slash + 1)) keys.push(key.slice(slash + 1))
  return keys
}

/** Shorter paths win: fewer folders, then fewer characters, then code-point order, so the choice is stable. */
export function comparePaths(left: string, right: string): number {
  const depth = left.split('/').length - right.split('/').length
  if (depth !== 0) return depth
  if (left.length !== right.length) return left.length - right.length
  return left < right ? -1 : left > right ? 1 : 0
}

/**
 * A list kept as its one item when it has one: most names name one page, and most are linked by one
 * page or none, and a one-item array costs 56 bytes more than its item (tens of thousands of them on
 * a 10,000-page blog).
 */
type Few = string | string[] | undefined

const listOf = (few: Few): readonly string[] => (few === undefined ? [] : typeof few === 'string' ? [few] : few)

/** `few` without `item`. */
function without(few: Few, item: string): Few {
  if (typeof few === 'string' || few === undefined) return few === item ? undefined : few
  const kept = few.filter((each) => each !== item)
  return kept.length === 0 ? undefined : kept.length === 1 ? kept[0] : kept
}

/** Inserts keeping the list best-first, so a lookup never sorts. */
function withSorted(few: Few, pagePath: string): Few {
  if (few === undefined || few === pagePath) return pagePath
  const list = typeof few === 'string' ? [few] : few
  let low = 0
  let high = list.length
  while (low < high) {
    const middle = (low + high) >>> 1
    if (comparePaths(list[middle]!, pagePath) < 0) low = middle + 1
    else high = middle
  }
  if (list[low] !== pagePath) list.splice(low, 0, pagePath)
  return list
}

type Tier = 'paths' | 'titles' | 'aliases'

/** Everything filed under one key. Every field is always present (possibly undefined): one object shape. */
interface NameEntry {
  paths: Few
  titles: Few
  aliases: Few
  /** Pages with a link by this name (each once): they re-resolve when the pages above change. */
  dependents: Few
  /** Where a link by this name leads, shared by all such links; dropped when a tier changes. */
  resolution: Resolution | undefined
}

function best(few: Few, tier: MatchTier): NameMatch | null {
  if (few === undefined) return null
  if (typeof few === 'string') return { tier, path: few }
  return { tier, path: few[0]!, collidesWith: [...few] }
}

function match(entry: NameEntry): NameMatch | null {
  return best(entry.paths, 'path') ?? best(entry.titles, 'title') ?? best(entry.aliases, 'alias')
}

/**
 * Every name of every page, and every link by name, filed by key: resolving a link and filing it
 * is one hash lookup. The tiers are kept apart so precedence is explicit.
 */
export class NameTable {
  readonly paths = new Set<string>()
  private readonly entries = new Map<string, NameEntry>()

  add(page: NamedPage): void {
    this.paths.add(page.path)
    for (const key of pathSuffixKeys(page.path)) this.addTo(key, 'paths', page.path)
    this.addTo(nameKey(page.title), 'titles', page.path)
    for (const alias of page.aliases) this.addTo(nameKey(alias), 'aliases', page.path)
  }

  remove(page: NamedPage): void {
    this.paths.delete(page.path)
    for (const key of pathSuffixKeys(page.path)) this.removeFrom(key, 'paths', page.path)
    this.removeFrom(nameKey(page.title), 'titles', page.path)
    for (const alias of page.aliases) this.removeFrom(nameKey(alias), 'aliases', page.path)
  }

  /** Precedence: file name or path suffix, then title, then alias; within a tier the shortest path wins. */
  lookup(key: string): NameMatch | null {
    const entry = this.entries.get(key)
    return entry ? match(entry) : null
  }

  /**
   * Resolves a link by name on `source` and files the link under the name. A page's links are
   * filed together. Links by the same name share one Resolution object, computed once.
   */
  resolveAndFile(key: string, source: string): Resolution {
    const entry = this.entry(key)
    const dependents = entry.dependents
    if (dependents === undefined) entry.dependents = source
    else if (typeof dependents === 'string') entry.dependents = dependents === source ? source : [dependents, source]
    else if (dependents[dependents.length - 1] !== source) dependents.push(source)
    return (entry.resolution ??= toResolution(match(entry)))
  }

  unfile(key: string, source: string): void {
    const entry = this.entries.get(key)
    if (!entry?.dependents) return
    entry.dependents = without(entry.dependents, source)
    this.dropIfEmpty(key, entry)
  }

  dependents(key: string): readonly string[] {
    return listOf(this.entries.get(key)?.dependents)
  }

  /** A plain, sorted view of the table, for comparing two indexes. */
  snapshot(): [string, Partial<Record<Tier | 'dependents', string[]>>][] {
    return [...this.entries]
      .map(([key, entry]): [string, Partial<Record<Tier | 'dependents', string[]>>] => {
        const view: Partial<Record<Tier | 'dependents', string[]>> = {}
        for (const tier of ['paths', 'titles', 'aliases'] as const) if (entry[tier]) view[tier] = [...listOf(entry[tier])]
        if (entry.dependents) view.dependents = [...listOf(entry.dependents)].sort()
        return [key, view]
      })
      .sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0))
  }

  private entry(key: string): NameEntry {
    let entry = this.entries.get(key)
    if (!entry) this.entries.set(key, (entry = { paths: undefined, titles: undefined, aliases: undefined, dependents: undefined, resolution: undefined }))
    return entry
  }

  private addTo(key: string, tier: Tier, pagePath: string): void {
    if (!key) return
    const entry = this.entry(key)
    entry[tier] = withSorted(entry[tier], pagePath)
    entry.resolution = undefined
  }

  private removeFrom(key: string, tier: Tier, pagePath: string): void {
    const entry = this.entries.get(key)
    if (!entry?.[tier]) return
    entry[tier] = without(entry[tier], pagePath)
    entry.resolution = undefined
    this.dropIfEmpty(key, entry)
  }

  private dropIfEmpty(key: string, entry: NameEntry): void {
    if (!entry.paths && !entry.titles && !entry.aliases && !entry.dependents) this.entries.delete(key)
  }
}

/** What a page's existence can change: links to its path, and links by any of its names. */
export interface DependencyKeys {
  paths: string[]
  names: string[]
}

export function dependencyKeysOf(page: NamedPage): DependencyKeys {
  const names = new Set(pathSuffixKeys(page.path))
  names.add(nameKey(page.title))
  for (const alias of page.aliases) names.add(nameKey(alias))
  return { paths: [page.path], names: [...names] }
}

/** The keys in one list and not the other: the names a page gained or lost. */
export function symmetricDifference(left: string[], right: string[]): string[] {
  const leftSet = new Set(left)
  const rightSet = new Set(right)
  return [...left.filter((key) => !rightSet.has(key)), ...right.filter((key) => !leftSet.has(key))]
}
