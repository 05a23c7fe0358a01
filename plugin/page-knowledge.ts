import type { GraphResponse, PageLinks } from './protocol.js'

/**
 * Each page's neighbourhood in the graph (itself, the pages it links to and those linking to it, and
 * the links among them), for pages another page links to: what "Linked from" and its local graph
 * draw, and nothing more. Every page's data passes through VitePress's whole pipeline (Vue's SFC
 * compiler keeps its AST, both bundles keep its code), so each byte here costs many in a build's heap.
 * Indexed once, so a build's slices cost O(links) in all rather than O(links) per page.
 */
export function createGraphSlices(graph: GraphResponse): (path: string) => PageLinks | undefined {
  const order = new Map(graph.nodes.map((node, index) => [node.path, index]))
  const touching = new Map<string, number[]>()
  const linkedFrom = new Set<string>()
  graph.edges.forEach((edge, index) => {
    for (const end of [edge.source, edge.target]) {
      const list = touching.get(end)
      if (list) list.push(index)
      else touching.set(end, [index])
    }
    if (edge.source !== edge.target) linkedFrom.add(edge.target)
  })
  return (path) => {
    if (!linkedFrom.has(path) || !order.has(path)) return undefined
    const near = new Set([path])
    for (const index of touching.get(path) ?? []) {
      const edge = graph.edges[index]!
      near.add(edge.source === path ? edge.target : edge.source)
    }
    // The links among the neighbours too, in the whole graph's order, as the client's own neighbourhood() keeps them.
    const edges = new Set<number>()
    for (const node of near) for (const index of touching.get(node) ?? []) if (near.has(graph.edges[index]!.source) && near.has(graph.edges[index]!.target)) edges.add(index)
    const nodes = [...near].sort((left, right) => order.get(left)! - order.get(right)!)
    const position = new Map(nodes.map((node, index) => [node, index]))
    return {
      nodes: nodes.map((node): [string, string] => [node, graph.nodes[order.get(node)!]!.title]),
      edges: [...edges].sort((left, right) => left - right).map((index): [number, number] => [position.get(graph.edges[index]!.source)!, position.get(graph.edges[index]!.target)!]),
    }
  }
}
