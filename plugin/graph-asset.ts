import { createHash } from 'node:crypto'
import type { CompactGraph, GraphResponse } from './protocol.js'

/** Paths and titles once, in a node table; edges as index pairs: about a third of the plain JSON. */
export function encodeGraph(graph: GraphResponse): CompactGraph {
  const position = new Map(graph.nodes.map((node, index) => [node.path, index]))
  const indexOf = (path: string): number => {
    const index = position.get(path)
    if (index === undefined) throw new Error(`metablog: the graph has a link from or to ${path}, which is not one of its pages.`)
    return index
  }
  return {
    nodes: graph.nodes.map((node) => [node.path, node.title, node.tags]),
    edges: graph.edges.map((edge) => (edge.heading === undefined ? [indexOf(edge.source), indexOf(edge.target)] : [indexOf(edge.source), indexOf(edge.target), edge.heading])),
    unresolved: graph.unresolved.map((link) => (link.kind ? [indexOf(link.source), link.target, link.kind] : [indexOf(link.source), link.target])),
  }
}

/** The graph page's data as a build asset, named by its content so a browser may cache it for good. */
export function graphAsset(graph: GraphResponse, assetsDir: string): { fileName: string; source: string } {
  const source = JSON.stringify(encodeGraph(graph))
  const hash = createHash('sha256').update(source).digest('base64url').slice(0, 8)
  return { fileName: `${assetsDir.replace(/^\/+|\/+$/g, '')}/metablog-graph.${hash}.json`, source }
}
