// Runs the force layout off the main thread, so a 2,000-page graph pans and paints smoothly.
import type { GraphResponse } from '../../plugin/protocol'
import { createLayout, type LayoutNode } from './graph-layout'

export interface LayoutRequest {
  graph: GraphResponse
  /** Positions to keep from the previous layout, by page path. */
  previous: Record<string, { x: number; y: number }>
  alpha: number
}

/** Positions as [x0, y0, x1, y1, …] in the order of `graph.nodes`. */
export interface LayoutFrame {
  positions: Float32Array
  alpha: number
}

let generation = 0

self.onmessage = (event: MessageEvent<LayoutRequest>) => {
  const run = ++generation
  const { graph, previous, alpha } = event.data
  const known = new Map<string, LayoutNode>(Object.entries(previous).map(([path, point]) => [path, { path, title: '', degree: 0, ...point }]))
  const { nodes, simulation } = createLayout(graph, known)
  simulation.alpha(alpha)
  const step = () => {
    if (run !== generation) return
    simulation.tick()
    const positions = new Float32Array(nodes.length * 2)
    nodes.forEach((node, index) => {
      positions[index * 2] = node.x ?? 0
      positions[index * 2 + 1] = node.y ?? 0
    })
    self.postMessage({ positions, alpha: simulation.alpha() } satisfies LayoutFrame, { transfer: [positions.buffer] })
    if (simulation.alpha() > simulation.alphaMin()) setTimeout(step, 0)
  }
  step()
}
