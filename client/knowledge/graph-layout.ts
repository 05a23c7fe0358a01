import { forceCollide, forceLink, forceManyBody, forceSimulation, forceX, forceY, type Simulation, type SimulationLinkDatum, type SimulationNodeDatum } from 'd3-force'
import type { GraphResponse } from '../../plugin/protocol'

export interface LayoutNode extends SimulationNodeDatum {
  path: string
  title: string
  degree: number
}

export type LayoutLink = SimulationLinkDatum<LayoutNode>

export interface GraphModel {
  nodes: LayoutNode[]
  links: { source: LayoutNode; target: LayoutNode }[]
}

/** Nodes (in the order of `data.nodes`, each with its `index` there) and links between them; positions already placed are kept. */
export function createModel(data: GraphResponse, previous: ReadonlyMap<string, { x?: number; y?: number }> = new Map()): GraphModel {
  const degree = new Map<string, number>()
  for (const edge of data.edges) {
    degree.set(edge.source, (degree.get(edge.source) ?? 0) + 1)
    degree.set(edge.target, (degree.get(edge.target) ?? 0) + 1)
  }
  const nodes: LayoutNode[] = data.nodes.map((node, index) => {
    const old = previous.get(node.path)
    return { index, path: node.path, title: node.title, degree: degree.get(node.path) ?? 0, x: old?.x, y: old?.y }
  })
  const byPath = new Map(nodes.map((node) => [node.path, node]))
  const links = data.edges
    .filter((edge) => edge.source !== edge.target && byPath.has(edge.source) && byPath.has(edge.target))
    .map((edge) => ({ source: byPath.get(edge.source)!, target: byPath.get(edge.target)! }))
  return { nodes, links }
}

/** A node as the force layout sees it: how many links it has, and where it is. */
export interface PlacedNode extends SimulationNodeDatum {
  degree: number
}

/** The force layout of nodes and links between them (run in a worker for large graphs). */
export function createSimulation<Node extends PlacedNode>(nodes: Node[], links: SimulationLinkDatum<Node>[]): Simulation<Node, SimulationLinkDatum<Node>> {
  // Larger graphs get weaker repulsion and a faster cool-down, so 2,000 nodes settle in a few seconds,
  // and a coarser approximation of it: at 2,000 nodes a tick costs a fifth less with nodes overlapping
  // no more and links no longer (theta 1.5 against d3's 0.9).
  const large = nodes.length > 500
  return forceSimulation(nodes)
    .force('link', forceLink<Node, SimulationLinkDatum<Node>>(links).distance(large ? 24 : 110).strength(0.4))
    .force('charge', forceManyBody<Node>().strength(large ? -18 : -500).theta(large ? 1.5 : 0.9).distanceMax(large ? 300 : 800))
    .force('collide', forceCollide<Node>((node) => radiusOf(node) + (large ? 2 : 24)))
    // A weak pull to the middle keeps pages without links from drifting away.
    .force('x', forceX<Node>(0).strength((node) => (node.degree === 0 ? 0.4 : 0.06)))
    .force('y', forceY<Node>(0).strength((node) => (node.degree === 0 ? 0.4 : 0.06)))
    .alphaDecay(large ? 0.05 : 0.0228)
    .stop()
}

/** The force layout of a graph model, on the main thread (where workers are missing). */
export function createLayout(data: GraphResponse, previous: ReadonlyMap<string, { x?: number; y?: number }> = new Map()) {
  const { nodes, links: modelLinks } = createModel(data, previous)
  const links: LayoutLink[] = modelLinks.map((link) => ({ source: link.source, target: link.target }))
  return { nodes, links, simulation: createSimulation(nodes, links) }
}

/** The links' ends as node indices, in pairs (for a worker: typed arrays, no node objects). */
export function linkIndices(model: GraphModel): Uint32Array {
  const pairs = new Uint32Array(model.links.length * 2)
  model.links.forEach((link, index) => {
    pairs[index * 2] = link.source.index!
    pairs[index * 2 + 1] = link.target.index!
  })
  return pairs
}

export function radiusOf(node: { degree: number }): number {
  return 3 + Math.min(9, Math.sqrt(node.degree) * 2)
}

/** The node under a point (in layout coordinates), if any. */
export function nodeAt(nodes: LayoutNode[], x: number, y: number): LayoutNode | undefined {
  let best: LayoutNode | undefined
  let bestDistance = Infinity
  for (const node of nodes) {
    const distance = Math.hypot((node.x ?? 0) - x, (node.y ?? 0) - y)
    if (distance <= radiusOf(node) + 4 && distance < bestDistance) {
      best = node
      bestDistance = distance
    }
  }
  return best
}

/** The box around every node, to fit the view to the graph. */
export function boundsOf(nodes: LayoutNode[]): { minX: number; minY: number; maxX: number; maxY: number } {
  let minX = Infinity
  let minY = Infinity
  let maxX = -Infinity
  let maxY = -Infinity
  for (const node of nodes) {
    minX = Math.min(minX, node.x ?? 0)
    minY = Math.min(minY, node.y ?? 0)
    maxX = Math.max(maxX, node.x ?? 0)
    maxY = Math.max(maxY, node.y ?? 0)
  }
  return nodes.length ? { minX, minY, maxX, maxY } : { minX: 0, minY: 0, maxX: 0, maxY: 0 }
}

/** The view that centres the graph and fits it in the canvas; labels run right of their node, so small graphs get room for them. */
export function fitView(nodes: LayoutNode[], width: number, height: number): { x: number; y: number; scale: number } {
  const box = boundsOf(nodes)
  if (nodes.length <= 60) box.maxX += 160
  const margin = 24
  const fitted = Math.min((width - margin * 2) / Math.max(1, box.maxX - box.minX), (height - 48) / Math.max(1, box.maxY - box.minY))
  const scale = Math.min(2, Math.max(0.2, fitted))
  return { x: -((box.minX + box.maxX) / 2) * scale, y: -((box.minY + box.maxY) / 2) * scale, scale }
}
