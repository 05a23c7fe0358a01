// Runs the force layout of the graph page in a Web Worker (positions come back once a frame, as the
// page asks for them), or on the main thread where workers are missing, keeping the nodes already
// placed where they are.
import type { GraphResponse } from '../../plugin/protocol'
import { createLayout, createModel, type GraphModel } from './graph-layout'
import type { LayoutFrame, LayoutNext, LayoutStart } from './graph-worker'

export interface GraphRunner {
  /** The nodes and links being laid out; their positions change in place. */
  readonly model: GraphModel
  /** Whether the layout still moves: from `start` until it has settled (before its first frame too). */
  readonly moving: boolean
  start(graph: GraphResponse, alpha: number): GraphModel
  stop(): void
}

/** `onFrame` is called after each tick with the simulation's alpha (how much it still moves). */
export function createGraphRunner(initial: GraphResponse, onFrame: (alpha: number) => void): GraphRunner {
  let model = createModel(initial)
  let worker: Worker | null = null
  let stopFallback = () => {}
  let runs = 0
  let moving = false

  function runOnMainThread(graph: GraphResponse, previous: Map<string, { x: number; y: number }>, alpha: number): GraphModel {
    const { nodes, links, simulation } = createLayout(graph, previous)
    // The links hold their node objects, so the simulation's moves show up in the drawing.
    model = { nodes, links: links as GraphModel['links'] }
    simulation.alpha(alpha)
    let running = true
    stopFallback = () => (running = false)
    const step = () => {
      if (!running) return
      simulation.tick()
      moving = simulation.alpha() > simulation.alphaMin()
      onFrame(simulation.alpha())
      // One tick a frame, like the worker's pace.
      if (simulation.alpha() > simulation.alphaMin()) requestAnimationFrame(step)
    }
    step()
    return model
  }

  return {
    get model() {
      return model
    },
    get moving() {
      return moving
    },
    start(graph, alpha) {
      const previous = new Map(model.nodes.filter((node) => node.x !== undefined).map((node) => [node.path, { x: node.x!, y: node.y! }]))
      stopFallback()
      moving = alpha > ALPHA_MIN
      if (typeof Worker === 'undefined') return runOnMainThread(graph, previous, alpha)
      model = createModel(graph, previous)
      const run = ++runs
      if (!model.nodes.length) {
        moving = false
        onFrame(0)
        return model
      }
      worker ??= new Worker(new URL('./graph-worker.ts', import.meta.url), { type: 'module' })
      worker.onmessage = (event: MessageEvent<LayoutFrame>) => {
        const { positions, alpha: left } = event.data
        if (event.data.run !== runs || positions.length !== model.nodes.length * 2) return
        model.nodes.forEach((node, index) => {
          node.x = positions[index * 2]
          node.y = positions[index * 2 + 1]
        })
        moving = left > ALPHA_MIN
        onFrame(left)
        // The next positions are asked for once this frame is painted: the worker never runs ahead.
        if (left > ALPHA_MIN) requestAnimationFrame(() => worker?.postMessage({ type: 'next', run } satisfies LayoutNext))
      }
      const { links, positions } = encodeModel(model)
      worker.postMessage({ type: 'start', run, links, positions, alpha } satisfies LayoutStart, [links.buffer, positions.buffer])
      return model
    },
    stop() {
      runs++
      moving = false
      stopFallback()
      worker?.terminate()
      worker = null
    },
  }
}

// d3-force's default: below it the simulation stops.
const ALPHA_MIN = 0.001

/** The model as the worker takes it: link ends as node indices, positions with NaN where unplaced. */
function encodeModel(model: GraphModel): { links: Uint32Array; positions: Float32Array } {
  const indices = new Map(model.nodes.map((node, index) => [node, index]))
  const links = new Uint32Array(model.links.length * 2)
  model.links.forEach((link, index) => {
    links[index * 2] = indices.get(link.source)!
    links[index * 2 + 1] = indices.get(link.target)!
  })
  const positions = new Float32Array(model.nodes.length * 2)
  model.nodes.forEach((node, index) => {
    positions[index * 2] = node.x ?? NaN
    positions[index * 2 + 1] = node.y ?? NaN
  })
  return { links, positions }
}
