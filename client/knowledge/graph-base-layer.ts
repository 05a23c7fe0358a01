// A large graph's base layer (its quiet edges, then its nodes) as pixels, in device space. It is
// written by a worker: at 2,000 nodes and 10,852 edges a frame's pixels cost the main thread 10–15 ms,
// and the first frame, before V8 has optimized the code, 30 ms or more.
import { rasterizeDiscs, rasterizeSegments } from './graph-raster'

/** What stays the same while a graph is laid out: sent to the painter once per graph. */
export interface BaseGraph {
  /** The links as node indices in pairs. */
  links: Uint32Array
  /** Each node's radius in layout units. */
  radii: Float32Array
}

/** One frame of the base layer. */
export interface BaseFrame {
  /** The canvas in device pixels. */
  width: number
  height: number
  /** x, y per node, in layout units; a node lands at offset + position × scale. */
  positions: Float32Array
  scale: number
  offsetX: number
  offsetY: number
  /**
   * Each node's colour as an ImageData word, its opacity included; 0 leaves the node out: it is
   * raised (drawn over this layer by the canvas), and so is a link between two raised nodes.
   */
  colors: Uint32Array
  edgeColor: number
  /** How many pixels across an edge is. */
  thickness: number
  /** Anti-aliased node rims (a moving layout's frames are gone at once, and cheaper sharp). */
  smooth: boolean
}

/** Writes the frame's edges, then its nodes in batches of one colour, into `pixels` (cleared first). */
export function paintBase(pixels: Uint32Array, graph: BaseGraph, frame: BaseFrame): void {
  const { width, height, positions, scale, offsetX, offsetY, colors } = frame
  pixels.fill(0)
  const count = colors.length
  const segments = new Float32Array(graph.links.length * 2)
  let end = 0
  for (let index = 0; index + 1 < graph.links.length; index += 2) {
    const source = graph.links[index]!
    const target = graph.links[index + 1]!
    if (colors[source] === 0 && colors[target] === 0) continue
    segments[end++] = offsetX + positions[source * 2]! * scale
    segments[end++] = offsetY + positions[source * 2 + 1]! * scale
    segments[end++] = offsetX + positions[target * 2]! * scale
    segments[end++] = offsetY + positions[target * 2 + 1]! * scale
  }
  rasterizeSegments(pixels, width, height, segments.subarray(0, end), frame.edgeColor, frame.thickness)

  const shown: number[] = []
  for (let node = 0; node < count; node++) if (colors[node] !== 0) shown.push(node)
  const batches = groupBy(shown, (node) => colors[node]!)
  const discs = new Float32Array(count * 3)
  for (const [color, batch] of batches) {
    end = 0
    for (const node of batch) {
      discs[end++] = offsetX + positions[node * 2]! * scale
      discs[end++] = offsetY + positions[node * 2 + 1]! * scale
      discs[end++] = graph.radii[node]! * scale
    }
    rasterizeDiscs(pixels, width, height, discs.subarray(0, end), color, frame.smooth)
  }
}

/** `items` in batches of one key, in the order each key first appears (so a frame is a handful of fills). */
export function groupBy<Item, Key>(items: Iterable<Item>, keyOf: (item: Item) => Key): Map<Key, Item[]> {
  const batches = new Map<Key, Item[]>()
  for (const item of items) {
    const key = keyOf(item)
    const batch = batches.get(key)
    if (batch) batch.push(item)
    else batches.set(key, [item])
  }
  return batches
}
