import type { GraphResponse } from '../../plugin/protocol.js'

/** The pages linking to `path`, with their titles, sorted by title. */
export function backlinksOf(data: GraphResponse, path: string): { path: string; title: string }[] {
  const titles = new Map(data.nodes.map((node) => [node.path, node.title]))
  const sources = new Set(data.edges.filter((edge) => edge.target === path && edge.source !== path).map((edge) => edge.source))
  return [...sources].map((source) => ({ path: source, title: titles.get(source) ?? source })).sort((a, b) => a.title.localeCompare(b.title))
}

/** The part of the graph within one link of `path`, either direction. */
export function neighbourhood(data: GraphResponse, path: string): GraphResponse {
  const near = new Set([path])
  for (const edge of data.edges) {
    if (edge.source === path) near.add(edge.target)
    if (edge.target === path) near.add(edge.source)
  }
  return {
    nodes: data.nodes.filter((node) => near.has(node.path)),
    edges: data.edges.filter((edge) => near.has(edge.source) && near.has(edge.target)),
    unresolved: data.unresolved.filter((link) => link.source === path),
  }
}
