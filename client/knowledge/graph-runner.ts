// Runs the force layout of the graph page in a Web Worker (positions stream back each tick), or on
// the main thread where workers are missing, keeping the nodes already placed where they are.
import { toRaw } from 'vue'
import type { GraphResponse } from '../../plugin/protocol'
import { createLayout, createModel, type GraphModel } from './graph-layout'
import type { LayoutFrame, LayoutRequest } from './graph-worker'

export interface GraphRunner {
  /** The nodes and links being laid out; their positions change in place. */
  readonly model: GraphModel
  start(graph: GraphResponse, alpha: number): GraphModel
  stop(): void
}

/** `onFrame` is called after each tick with the simulation's alpha (how much it still moves). */
export function createGraphRunner(initial: GraphResponse, onFrame: (alpha: number) => void): GraphRunner {
  let model = createModel(initial)
  let worker: Worker | null = null
  let stopFallback = () => {}

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
      onFrame(simulation.alpha())
      if (simulation.alpha() > simulation.alphaMin()) setTimeout(step, 0)
    }
    step()
    return model
  }

  return {
    get model() {
      return model
    },
    start(graph, alpha) {
      const previous = new Map(model.nodes.filter((node) => node.x !== undefined).map((node) => [node.path, { x: node.x!, y: node.y! }]))
      stopFallback()
      if (typeof Worker === 'undefined') return runOnMainThread(graph, previous, alpha)
      model = createModel(graph, previous)
      worker ??= new Worker(new URL('./graph-worker.ts', import.meta.url), { type: 'module' })
      worker.onmessage = (event: MessageEvent<LayoutFrame>) => {
        const { positions } = event.data
        if (positions.length !== model.nodes.length * 2) return
        model.nodes.forEach((node, index) => {
          node.x = positions[index * 2]
          node.y = positions[index * 2 + 1]
        })
        onFrame(event.data.alpha)
      }
      worker.postMessage({ graph: toRaw(graph), previous: Object.fromEntries(previous), alpha } satisfies LayoutRequest)
      return model
    },
    stop() {
      stopFallback()
      worker?.terminate()
      worker = null
    },
  }
}
