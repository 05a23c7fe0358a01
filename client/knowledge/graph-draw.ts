// Paints the graph: edges, nodes in their group colours, then labels in screen space, most-linked
// first, skipping any label that would overlap one already drawn.
import { radiusOf, type GraphModel, type LayoutNode } from './graph-layout'
import type { GraphPalette } from './graph-palette'
import { pixelColor, rasterizeDiscs, rasterizeSegments } from './graph-raster'

export interface GraphView {
  x: number
  y: number
  scale: number
}

export interface GraphScene {
  model: GraphModel
  /** Label candidates, most-linked first. */
  byDegree: readonly LayoutNode[]
  view: GraphView
  width: number
  height: number
  palette: GraphPalette
  font: string
  colorOf: (node: LayoutNode) => string
  /** The nodes to show, the rest dimmed (hover neighbourhood, search matches); null dims nothing. */
  emphasis: ReadonlySet<LayoutNode> | null
  /** Ringed and always labelled: the focus page, the hovered node, the found one. */
  selected: ReadonlySet<LayoutNode>
  /** How many other labels to try (0 while a large layout is still moving). */
  labelBudget: number
  /** Anti-aliased node edges where nodes are written as pixels; a moving layout's frames are gone at once, and cheaper sharp. */
  smooth: boolean
}

const LABEL_SIZE = 13
const LABEL_HEIGHT = LABEL_SIZE + 6
// Past this many tries the frame budget matters more than one more label.
export const LABEL_ATTEMPTS = 400
const DIMMED = 0.15
// From this many edges the base layer (quiet edges and nodes) is written as pixels.
const RASTER_EDGES = 1000

const widths = new Map<string, number>()

function labelOf(title: string): string {
  return title.length > 42 ? `${title.slice(0, 40)}…` : title
}

function measure(context: CanvasRenderingContext2D, text: string): number {
  const key = `${context.font}\u0000${text}`
  let width = widths.get(key)
  if (width === undefined) {
    if (widths.size > 20_000) widths.clear()
    width = context.measureText(text).width
    widths.set(key, width)
  }
  return width
}

type Link = GraphModel['links'][number]

/** Draws the scene; answers how many labels it drew. */
export function drawGraph(context: CanvasRenderingContext2D, ratio: number, scene: GraphScene): number {
  const { model, view, width, height, palette, emphasis, selected } = scene
  const originX = width / 2 + view.x
  const originY = height / 2 + view.y
  context.setTransform(ratio, 0, 0, ratio, 0, 0)
  context.clearRect(0, 0, width, height)

  // An emphasis is raised: its edges and nodes are drawn over the rest, which is dimmed.
  const raised = (link: Link) => emphasis !== null && emphasis.has(link.source) && emphasis.has(link.target)
  const base = {
    links: emphasis ? model.links.filter((link) => !raised(link)) : model.links,
    nodes: emphasis ? model.nodes.filter((node) => !emphasis.has(node)) : model.nodes,
    edgeAlpha: emphasis ? DIMMED * 0.6 : 0.45,
    nodeAlpha: emphasis ? DIMMED : 1,
  }
  context.translate(originX, originY)
  context.scale(view.scale, view.scale)
  context.lineWidth = 1 / view.scale
  // Pixels are written in device space; putImageData ignores the transform.
  if (model.links.length >= RASTER_EDGES) drawPixels(context, ratio, scene, originX, originY, base)
  else {
    strokeEdges(context, base.links, palette.edge, base.edgeAlpha)
    fillNodes(context, base.nodes, scene.colorOf, base.nodeAlpha)
  }
  if (emphasis) {
    strokeEdges(context, model.links.filter(raised), palette.edge, 0.9)
    fillNodes(context, model.nodes.filter((node) => emphasis.has(node)), scene.colorOf, 1)
  }
  context.globalAlpha = 1
  context.strokeStyle = palette.focus
  context.lineWidth = 2.5 / view.scale
  for (const node of selected) {
    context.beginPath()
    context.arc(node.x ?? 0, node.y ?? 0, radiusOf(node) + 3 / view.scale, 0, Math.PI * 2)
    context.stroke()
  }
  return drawLabels(context, ratio, scene, originX, originY)
}

function strokeEdges(context: CanvasRenderingContext2D, links: readonly Link[], color: string, alpha: number): void {
  context.beginPath()
  for (const link of links) {
    context.moveTo(link.source.x ?? 0, link.source.y ?? 0)
    context.lineTo(link.target.x ?? 0, link.target.y ?? 0)
  }
  context.strokeStyle = color
  context.globalAlpha = alpha
  context.stroke()
}

/** The nodes by colour, so a 2,000-node frame is a handful of fills. */
function byColor(nodes: readonly LayoutNode[], colorOf: (node: LayoutNode) => string): Map<string, LayoutNode[]> {
  const batches = new Map<string, LayoutNode[]>()
  for (const node of nodes) {
    const color = colorOf(node)
    const batch = batches.get(color)
    if (batch) batch.push(node)
    else batches.set(color, [node])
  }
  return batches
}

function fillNodes(context: CanvasRenderingContext2D, nodes: readonly LayoutNode[], colorOf: (node: LayoutNode) => string, alpha: number): void {
  context.globalAlpha = alpha
  for (const [color, batch] of byColor(nodes, colorOf)) {
    context.beginPath()
    for (const node of batch) {
      context.moveTo((node.x ?? 0) + radiusOf(node), node.y ?? 0)
      context.arc(node.x ?? 0, node.y ?? 0, radiusOf(node), 0, Math.PI * 2)
    }
    context.fillStyle = color
    context.fill()
  }
}

let pixelBuffer: ImageData | null = null
let points = new Float32Array(0)
const normalizedColors = new Map<string, string>()

/**
 * Writes the scene's base layer (its quiet edges, then its nodes) straight into the canvas's pixels,
 * in device space; it must come first, on a cleared canvas. A software-rendered canvas spends more
 * on thousands of anti-aliased arcs and one stroke of thousands of edges than the script does.
 */
function drawPixels(context: CanvasRenderingContext2D, ratio: number, scene: GraphScene, originX: number, originY: number, base: { links: readonly Link[]; nodes: readonly LayoutNode[]; edgeAlpha: number; nodeAlpha: number }): void {
  const { width, height } = context.canvas
  if (!width || !height) return
  if (pixelBuffer?.width !== width || pixelBuffer.height !== height) pixelBuffer = context.createImageData(width, height)
  const pixels = new Uint32Array(pixelBuffer.data.buffer)
  pixels.fill(0)
  const scale = scene.view.scale * ratio
  const offsetX = originX * ratio
  const offsetY = originY * ratio
  // The canvas normalizes any CSS colour to '#rrggbb' or 'rgba(…)' once assigned.
  const wordOf = (color: string, alpha: number) => {
    let normalized = normalizedColors.get(color)
    if (normalized === undefined) {
      if (normalizedColors.size > 256) normalizedColors.clear()
      context.fillStyle = color
      normalizedColors.set(color, (normalized = String(context.fillStyle)))
    }
    return pixelColor(normalized, alpha)
  }

  if (points.length < Math.max(base.links.length * 4, base.nodes.length * 3)) points = new Float32Array(Math.max(base.links.length * 4, base.nodes.length * 3))
  let count = 0
  for (const link of base.links) {
    points[count++] = offsetX + (link.source.x ?? 0) * scale
    points[count++] = offsetY + (link.source.y ?? 0) * scale
    points[count++] = offsetX + (link.target.x ?? 0) * scale
    points[count++] = offsetY + (link.target.y ?? 0) * scale
  }
  rasterizeSegments(pixels, width, height, points.subarray(0, count), wordOf(scene.palette.edge, base.edgeAlpha), Math.max(1, Math.round(ratio)))

  for (const [color, batch] of byColor(base.nodes, scene.colorOf)) {
    count = 0
    for (const node of batch) {
      points[count++] = offsetX + (node.x ?? 0) * scale
      points[count++] = offsetY + (node.y ?? 0) * scale
      points[count++] = radiusOf(node) * scale
    }
    rasterizeDiscs(pixels, width, height, points.subarray(0, count), wordOf(color, base.nodeAlpha), scene.smooth)
  }
  context.putImageData(pixelBuffer, 0, 0)
}

export interface LabelBox {
  left: number
  top: number
  right: number
  bottom: number
}

const overlaps = (a: LabelBox, b: LabelBox) => a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom

/**
 * Which labels to draw, in candidate order: a label that leaves the canvas or overlaps one already
 * placed is skipped, unless it is `forced` (the hovered or found page is always named).
 */
export function placeLabels<T>(
  candidates: Iterable<{ item: T; box: LabelBox; forced: boolean }>,
  width: number,
  height: number,
  /** Boxes a label must not cover either: the nodes. */
  obstacles: readonly LabelBox[] = [],
): { item: T; box: LabelBox }[] {
  const placed: { item: T; box: LabelBox }[] = []
  for (const { item, box, forced } of candidates) {
    if (box.right < 0 || box.left > width || box.bottom < 0 || box.top > height) continue
    if (!forced && (placed.some((other) => overlaps(box, other.box)) || obstacles.some((other) => overlaps(box, other)))) continue
    placed.push({ item, box })
  }
  return placed
}

function drawLabels(context: CanvasRenderingContext2D, ratio: number, scene: GraphScene, originX: number, originY: number): number {
  const { view, width, height, palette, emphasis, selected } = scene
  context.setTransform(ratio, 0, 0, ratio, 0, 0)
  context.textBaseline = 'middle'
  context.lineJoin = 'round'
  context.lineWidth = 4
  // A halo in the canvas's background colour keeps a label readable over edges.
  context.strokeStyle = palette.background
  context.fillStyle = palette.text
  const fonts = { plain: `${LABEL_SIZE}px ${scene.font}`, bold: `600 ${LABEL_SIZE}px ${scene.font}` }
  const tried = new Set<LayoutNode>()
  // Setting a font makes the canvas parse it: only when it changes.
  let current = ''
  const useFont = (font: string) => {
    if (font !== current) context.font = current = font
  }
  function* candidates() {
    const budget = scene.labelBudget
    for (const node of [...selected, ...(budget && emphasis && emphasis.size <= budget ? emphasis : []), ...scene.byDegree.slice(0, budget)]) {
      if (tried.has(node)) continue
      tried.add(node)
      const forced = selected.has(node)
      if (emphasis && !emphasis.has(node) && !forced) continue
      useFont(forced ? fonts.bold : fonts.plain)
      const text = labelOf(node.title)
      const textWidth = measure(context, text)
      const gap = radiusOf(node) * view.scale + 4
      let left = originX + (node.x ?? 0) * view.scale + gap
      // Near the right edge the label goes to the node's left rather than off the canvas.
      if (left + textWidth > width) left = Math.max(0, left - gap * 2 - textWidth)
      const middle = originY + (node.y ?? 0) * view.scale
      yield { item: { text, forced }, box: { left, top: middle - LABEL_HEIGHT / 2, right: left + textWidth, bottom: middle + LABEL_HEIGHT / 2 }, forced }
    }
  }
  const nodes: LabelBox[] = []
  if (scene.labelBudget) {
    for (const node of scene.model.nodes) {
      const x = originX + (node.x ?? 0) * view.scale
      const y = originY + (node.y ?? 0) * view.scale
      const radius = radiusOf(node) * view.scale
      if (x + radius >= 0 && x - radius <= width && y + radius >= 0 && y - radius <= height) nodes.push({ left: x - radius, top: y - radius, right: x + radius, bottom: y + radius })
    }
  }
  const placed = placeLabels(candidates(), width, height, nodes)
  for (const { item, box } of placed) {
    useFont(item.forced ? fonts.bold : fonts.plain)
    context.strokeText(item.text, box.left, (box.top + box.bottom) / 2)
    context.fillText(item.text, box.left, (box.top + box.bottom) / 2)
  }
  return placed.length
}
