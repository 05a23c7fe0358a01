// The painter's side of the graph worker (see graph-worker.ts): writes a large graph's base layer off
// the main thread (see graph-base-layer.ts), one frame at a time, into the buffer the page hands back
// after drawing the last one.
import { paintBase, type BaseFrame, type BaseGraph } from './graph-base-layer'

/** The graph the next frames are of; then each frame, with the buffer to write it into when that has the frame's size. */
export type PaintRequest = { type: 'graph'; graph: BaseGraph } | { type: 'frame'; frame: BaseFrame; buffer?: ArrayBuffer }

/** The frame's pixels, as ImageData's RGBA bytes. */
export interface PaintResult {
  buffer: ArrayBuffer
  width: number
  height: number
}

let graph: BaseGraph = { links: new Uint32Array(0), radii: new Float32Array(0) }

/** Takes a request; answers a frame's pixels. */
export function paint(request: PaintRequest): PaintResult | null {
  if (request.type === 'graph') {
    graph = request.graph
    return null
  }
  const { frame, buffer } = request
  const size = frame.width * frame.height
  const pixels = buffer?.byteLength === size * 4 ? new Uint32Array(buffer) : new Uint32Array(size)
  paintBase(pixels, graph, frame)
  return { buffer: pixels.buffer, width: frame.width, height: frame.height }
}
