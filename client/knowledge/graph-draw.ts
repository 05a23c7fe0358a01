// Paints the graph: edges, nodes in their group colours, then labels in screen space, most-linked
// first, skipping any label that would overlap one already drawn.
import { groupBy, type BaseFrame, type BaseGraph } from './graph-base-layer'
import { linkIndices, radiusOf, type GraphModel, type LayoutNode } from './graph-layout'
import type { GraphPalette } from './graph-palette'
import { pixelColor } from './graph-raster'

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

/** From this many edges a graph's base layer (quiet edges and nodes) is painted as pixels, off the main thread. */
export const paintsPixels = (model: GraphModel) => model.links.length >= RASTER_EDGES

const LABEL_SIZE = 13
const LABEL_HEIGHT = LABEL_SIZE + 6
// Past this many tries the frame budget matters more than one more label.
export const LABEL_ATTEMPTS = 400
const DIMMED = 0.15
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

/** The opacity of what an emphasis dims (or of everything, without one). */
const baseAlpha = (emphasis: GraphScene['emphasis']) => ({ edge: emphasis ? DIMMED * 0.6 : 0.45, node: emphasis ? DIMMED : 1 })

/**
 * Draws the scene; answers how many labels it drew. `base` is its base layer painted as pixels (see
 * `paintsPixels`); without it the canvas strokes and fills that layer itself.
 */
export function drawGraph(context: CanvasRenderingContext2D, ratio: number, scene: GraphScene, base: ImageData | null = null): number {
  const { model, view, width, height, palette, emphasis, selected } = scene
  const originX = width / 2 + view.x
  const originY = height / 2 + view.y
  context.setTransform(ratio, 0, 0, ratio, 0, 0)
  context.clearRect(0, 0, width, height)
  // Pixels are in device space; putImageData ignores the transform.
  if (base) context.putImageData(base, 0, 0)
  context.translate(originX, originY)
  context.scale(view.scale, view.scale)
  context.lineWidth = 1 / view.scale

  // An emphasis is raised: its edges and nodes are drawn over the rest, which is dimmed.
  const raised = (link: Link) => emphasis !== null && emphasis.has(link.source) && emphasis.has(link.target)
  if (!base) {
    const alpha = baseAlpha(emphasis)
    strokeEdges(context, emphasis ? model.links.filter((link) => !raised(link)) : model.links, palette.edge, alpha.edge)
    fillNodes(context, emphasis ? model.nodes.filter((node) => !emphasis.has(node)) : model.nodes, scene.colorOf, alpha.node)
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

function fillNodes(context: CanvasRenderingContext2D, nodes: readonly LayoutNode[], colorOf: (node: LayoutNode) => string, alpha: number): void {
  context.globalAlpha = alpha
  for (const [color, batch] of groupBy(nodes, colorOf)) {
    context.beginPath()
    for (const node of batch) {
      context.moveTo((node.x ?? 0) + radiusOf(node), node.y ?? 0)
      context.arc(node.x ?? 0, node.y ?? 0, radiusOf(node), 0, Math.PI * 2)
    }
    context.fillStyle = color
    context.fill()
  }
}

/** What a graph's base layer keeps while it is laid out: its links by node index, its nodes' radii. */
export function baseGraphOf(model: GraphModel): BaseGraph {
  return { links: linkIndices(model), radii: Float32Array.from(model.nodes, radiusOf) }
}

const normalizedColors = new Map<string, string>()

/** A CSS colour at `alpha` as an ImageData word; the canvas normalizes the colour ('#rrggbb' or 'rgba(…)') once assigned. */
function wordOf(context: CanvasRenderingContext2D, color: string, alpha: number): number {
  let normalized = normalizedColors.get(color)
  if (normalized === undefined) {
    if (normalizedColors.size > 256) normalizedColors.clear()
    context.fillStyle = color
    normalizedColors.set(color, (normalized = String(context.fillStyle)))
  }
  return pixelColor(normalized, alpha)
}

/** The scene's base layer (what its emphasis leaves dimmed, or all of it), for the painter, in the canvas's device pixels. */
export function baseFrameOf(context: CanvasRenderingContext2D, ratio: number, scene: GraphScene): BaseFrame {
  const { model, view, emphasis } = scene
  const alpha = baseAlpha(emphasis)
  const positions = new Float32Array(model.nodes.length * 2)
  const colors = new Uint32Array(model.nodes.length)
  const words = new Map<string, number>()
  model.nodes.forEach((node, index) => {
    positions[index * 2] = node.x ?? 0
    positions[index * 2 + 1] = node.y ?? 0
    if (emphasis?.has(node)) return
    const color = scene.colorOf(node)
    let word = words.get(color)
    if (word === undefined) words.set(color, (word = wordOf(context, color, alpha.node)))
    colors[index] = word
  })
  return {
    width: context.canvas.width,
    height: context.canvas.height,
    positions,
    scale: view.scale * ratio,
    offsetX: (scene.width / 2 + view.x) * ratio,
    offsetY: (scene.height / 2 + view.y) * ratio,
    colors,
    edgeColor: wordOf(context, scene.palette.edge, alpha.edge),
    thickness: Math.max(1, Math.round(ratio)),
    smooth: scene.smooth,
  }
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
