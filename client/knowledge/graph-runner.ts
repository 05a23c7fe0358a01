// Runs the force layout of the graph page in a Web Worker (positions come back once a frame, as the
// page asks for them), or on the main thread where workers are missing, keeping the nodes already
// placed where they are.
import type { GraphResponse } from '../../plugin/protocol'
import { createLayout, createModel, linkIndices, type GraphModel } from './graph-layout'
import type { LayoutFrame, LayoutNext, LayoutStart } from './graph-worker'

export interface GraphRunner {
  /** The nodes and links being laid out; their positions change in place. */
  readonly model: GraphModel
  /** How much the layout still moves: the start's alpha until its first frame, then each frame's; 0 once stopped. */
  readonly alpha: number
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
  let alpha = 0

  function runOnMainThread(graph: GraphResponse, previous: Map<string, { x: number; y: number }>, startAlpha: number): GraphModel {
    const { nodes, links, simulation } = createLayout(graph, previous)
    // The links hold their node objects, so the simulation's moves show up in the drawing.
    model = { nodes, links: links as GraphModel['links'] }
    simulation.alpha(startAlpha)
    let running = true
    stopFallback = () => (running = false)
    const step = () => {
      if (!running) return
      simulation.tick()
      alpha = simulation.alpha()
      onFrame(alpha)
      // One tick a frame, like the worker's pace.
      if (alpha > simulation.alphaMin()) requestAnimationFrame(step)
    }
    step()
    return model
  }

  return {
    get model() {
      return model
    },
    get alpha() {
      return alpha
    },
    get moving() {
      return alpha > ALPHA_MIN
    },
    start(graph, startAlpha) {
      const previous = new Map(model.nodes.filter((node) => node.x !== undefined).map((node) => [node.path, { x: node.x!, y: node.y! }]))
      stopFallback()
      alpha = startAlpha
      if (typeof Worker === 'undefined') return runOnMainThread(graph, previous, startAlpha)
      model = createModel(graph, previous)
      const run = ++runs
      if (!model.nodes.length) {
        alpha = 0
        onFrame(0)
        return model
      }
      worker ??= createGraphWorker()
      worker.onmessage = (event: MessageEvent<LayoutFrame>) => {
        const { positions, alpha: left } = event.data
        if (event.data.run !== runs || positions.length !== model.nodes.length * 2) return
        model.nodes.forEach((node, index) => {
          node.x = positions[index * 2]
          node.y = positions[index * 2 + 1]
        })
        alpha = left
        onFrame(left)
        // The next positions are asked for once this frame is painted: the worker never runs ahead.
        if (left > ALPHA_MIN) requestAnimationFrame(() => worker?.postMessage({ type: 'next', run } satisfies LayoutNext))
      }
      const { links, positions } = encodeModel(model)
      worker.postMessage({ type: 'start', run, links, positions, alpha: startAlpha } satisfies LayoutStart, [links.buffer, positions.buffer])
      return model
    },
    stop() {
      runs++
      alpha = 0
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
  const links = linkIndices(model)
  const positions = new Float32Array(model.nodes.length * 2)
  model.nodes.forEach((node, index) => {
    positions[index * 2] = node.x ?? NaN
    positions[index * 2 + 1] = node.y ?? NaN
  })
  return { links, positions }
}

/**
 * An instance of the graph's worker script (the layout's, or the painter's). Its URL is named apart from
 * `new Worker(…)`: bundlers take it for an asset and copy it as it is (build:plugin bundles it, see
 * build/bundle-client.mjs) instead of bundling it once more.
 */
export function createGraphWorker(): Worker {
  const url = new URL('./graph-worker.ts', import.meta.url)
  return new Worker(url, { type: 'module' })
}
