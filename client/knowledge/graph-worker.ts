// One script for the graph page's two workers: the layout's and, for a large graph, the painter's
// (see graph-paint.ts), each its own instance. One file, so a blog's build copies one asset.
//
// The layout runs off the main thread, so a 2,000-page graph pans and paints smoothly. It speaks
// typed arrays only (no page paths or titles cross over), and it works out the next frame while the
// page draws the last one, then waits for the page to ask for it: one frame ahead, never more, so a
// tick and a draw share a display frame instead of taking one each.
import { createSimulation, type PlacedNode } from './graph-layout'
import { paint, type PaintRequest } from './graph-paint'

/** A new layout: `links` holds node indices in pairs; `positions` x, y per node, NaN where unplaced. */
export interface LayoutStart {
  type: 'start'
  run: number
  links: Uint32Array
  positions: Float32Array
  alpha: number
}

/** The page drew the last frame and wants the next one. */
export interface LayoutNext {
  type: 'next'
  run: number
}

export type LayoutRequest = LayoutStart | LayoutNext

/** Positions as [x0, y0, x1, y1, …] in the order of the graph's nodes. */
export interface LayoutFrame {
  run: number
  positions: Float32Array
  alpha: number
}

// Another tick in the same frame starts only this soon, so a frame's positions are never late.
const MORE_TICKS_WITHIN_MS = 6

interface Layout {
  run: number
  nodes: PlacedNode[]
  simulation: ReturnType<typeof createSimulation<PlacedNode>>
}

let current: Layout | null = null
/** The current run's next frame, worked out ahead while the page draws. */
let ahead: LayoutFrame | null = null

function start({ run, links, positions, alpha }: LayoutStart): void {
  const count = positions.length / 2
  const nodes: PlacedNode[] = Array.from({ length: count }, (_, index) => {
    const x = positions[index * 2]!
    const y = positions[index * 2 + 1]!
    return { degree: 0, ...(Number.isNaN(x) ? {} : { x, y }) }
  })
  const pairs: { source: number; target: number }[] = []
  for (let index = 0; index < links.length; index += 2) {
    const source = links[index]!
    const target = links[index + 1]!
    nodes[source]!.degree++
    nodes[target]!.degree++
    pairs.push({ source, target })
  }
  const simulation = createSimulation(nodes, pairs)
  simulation.alpha(alpha)
  current = { run, nodes, simulation }
  ahead = null
  next(run)
}

/** Ticks a run for one frame. */
function tickFrame({ run, nodes, simulation }: Layout): LayoutFrame {
  const begun = performance.now()
  do simulation.tick()
  while (simulation.alpha() > simulation.alphaMin() && performance.now() - begun < MORE_TICKS_WITHIN_MS)
  const positions = new Float32Array(nodes.length * 2)
  for (let index = 0; index < nodes.length; index++) {
    positions[index * 2] = nodes[index]!.x ?? 0
    positions[index * 2 + 1] = nodes[index]!.y ?? 0
  }
  return { run, positions, alpha: simulation.alpha() }
}

function next(run: number): void {
  if (!current || current.run !== run) return
  const frame = ahead ?? tickFrame(current)
  ahead = null
  self.postMessage(frame, { transfer: [frame.positions.buffer] })
  if (frame.alpha <= current.simulation.alphaMin()) return
  // After this message is handled: a 'next' already waiting is answered first (with a fresh tick).
  setTimeout(() => {
    if (current?.run === run && ahead === null) ahead = tickFrame(current)
  })
}

self.onmessage = (event: MessageEvent<LayoutRequest | PaintRequest>) => {
  const request = event.data
  if (request.type === 'start') start(request)
  else if (request.type === 'next') next(request.run)
  else {
    const painted = paint(request)
    if (painted) self.postMessage(painted, { transfer: [painted.buffer] })
  }
}
