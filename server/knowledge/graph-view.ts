import type { GraphEdge, GraphResponse, UnresolvedLink } from '../../plugin/protocol.js'
import type { IndexedPage } from './link-graph.js'
import { lookupOfLink } from './resolver.js'

/** A link target that named several pages equally; the shortest path won. */
export interface Collision {
  /** The name as looked up (lower case). */
  name: string
  /** The page every such link resolves to. */
  chosen: string
  /** All the pages the name matched, best first. */
  candidates: string[]
  /** The pages with such a link. */
  sources: string[]
}

const byText = (left: string, right: string) => (left < right ? -1 : left > right ? 1 : 0)

function sortedPages(pages: Iterable<IndexedPage>): IndexedPage[] {
  return [...pages].sort((left, right) => byText(left.path, right.path))
}

export interface GraphOptions {
  /** Keep draft pages and the links to them. Default true; a production build passes false. */
  includeDrafts?: boolean
}

/** Nodes, edges (one per source, target and heading; self-links left out) and unresolved links, sorted. */
export function collectGraph(pages: Iterable<IndexedPage>, options: GraphOptions = {}): GraphResponse {
  const all = sortedPages(pages)
  const drafts = new Set(options.includeDrafts === false ? all.filter((page) => page.draft).map((page) => page.path) : [])
  const sorted = drafts.size > 0 ? all.filter((page) => !drafts.has(page.path)) : all
  const edges: GraphEdge[] = []
  const unresolved: UnresolvedLink[] = []
  for (const page of sorted) {
    const seenEdges = new Set<string>()
    const seenUnresolved = new Set<string>()
    const pageEdges: GraphEdge[] = []
    const pageUnresolved: UnresolvedLink[] = []
    for (const link of page.links) {
      const target = link.resolution.path
      if (target === null) {
        if (seenUnresolved.has(link.target)) continue
        seenUnresolved.add(link.target)
        pageUnresolved.push({ source: page.path, target: link.target })
      } else if (target !== page.path && !drafts.has(target)) {
        const key = `${target}#${link.heading ?? ''}`
        if (seenEdges.has(key)) continue
        seenEdges.add(key)
        pageEdges.push({ source: page.path, target, ...(link.heading ? { heading: link.heading } : {}) })
      }
    }
    // A missing attachment is listed like a missing page: it is something the author still has to add.
    for (const link of page.attachments) {
      if (link.resolved !== null || seenUnresolved.has(link.target)) continue
      seenUnresolved.add(link.target)
      pageUnresolved.push({ source: page.path, target: link.target, kind: 'attachment' })
    }
    pageEdges.sort((left, right) => byText(left.target, right.target) || byText(left.heading ?? '', right.heading ?? ''))
    pageUnresolved.sort((left, right) => byText(left.target, right.target))
    edges.push(...pageEdges)
    unresolved.push(...pageUnresolved)
  }
  return {
    nodes: sorted.map((page) => ({ path: page.path, title: page.title, tags: [...page.tags] })),
    edges,
    unresolved,
  }
}

export function collectCollisions(pages: Iterable<IndexedPage>): Collision[] {
  const byName = new Map<string, Collision>()
  for (const page of sortedPages(pages)) {
    for (const link of page.links) {
      const candidates = link.resolution.collidesWith
      if (!candidates) continue
      const lookup = lookupOfLink(link, page.path)
      if (lookup.kind !== 'name') continue
      const name = lookup.key
      const collision = byName.get(name) ?? { name, chosen: candidates[0]!, candidates, sources: [] }
      byName.set(name, collision)
      if (collision.sources.at(-1) !== page.path) collision.sources.push(page.path)
    }
  }
  return [...byName.values()].sort((left, right) => byText(left.name, right.name))
}
