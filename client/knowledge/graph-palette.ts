// The graph is painted on a canvas, which CSS cannot restyle: its colours are read from the theme's
// variables, and read again whenever VitePress switches between light and dark.
import type { GraphNode } from '../../plugin/protocol'

export interface GraphPalette {
  background: string
  text: string
  edge: string
  node: string
  focus: string
  /** One colour per group, in legend order; the theme's own hues first. */
  groups: string[]
}

// Mid-tone hues that read on light and dark backgrounds, after the theme's five.
const EXTRA_GROUP_COLORS = ['#0ea5e9', '#f97316', '#14b8a6', '#ec4899', '#84cc16', '#a855f7']
const THEME_GROUP_VARIABLES = ['--vp-c-indigo-1', '--vp-c-green-1', '--vp-c-yellow-1', '--vp-c-red-1', '--vp-c-purple-1']
export const OTHER_GROUP = 'other'

export function readPalette(element: Element): GraphPalette {
  const style = getComputedStyle(element)
  const read = (name: string, fallback: string) => style.getPropertyValue(name).trim() || fallback
  return {
    background: read('--vp-c-bg-soft', '#f6f6f7'),
    text: read('--vp-c-text-1', '#3c3c43'),
    edge: read('--vp-c-text-3', '#929295'),
    node: read('--vp-c-text-3', '#929295'),
    focus: read('--vp-c-brand-1', '#3451b2'),
    groups: [...THEME_GROUP_VARIABLES.map((name, index) => read(name, EXTRA_GROUP_COLORS[index]!)), ...EXTRA_GROUP_COLORS],
  }
}

export type ColorMode = 'folder' | 'tag'

/** The group a page is coloured by: its top folder, or its first tag. */
export function groupOf(node: Pick<GraphNode, 'path' | 'tags'>, mode: ColorMode): string {
  if (mode === 'tag') return node.tags[0] ?? 'untagged'
  const slash = node.path.indexOf('/')
  return slash === -1 ? 'top level' : node.path.slice(0, slash)
}

/** Groups by size, biggest first; past the palette's length they share one "other" colour. */
export function legendOf(nodes: readonly Pick<GraphNode, 'path' | 'tags'>[], mode: ColorMode, colors: number): { group: string; count: number }[] {
  const counts = new Map<string, number>()
  for (const node of nodes) counts.set(groupOf(node, mode), (counts.get(groupOf(node, mode)) ?? 0) + 1)
  const sorted = [...counts].map(([group, count]) => ({ group, count })).sort((a, b) => b.count - a.count || a.group.localeCompare(b.group))
  if (sorted.length <= colors) return sorted
  const other = sorted.slice(colors - 1).reduce((sum, entry) => sum + entry.count, 0)
  return [...sorted.slice(0, colors - 1), { group: OTHER_GROUP, count: other }]
}

/** The words under a graph: its size and how to use it (the page's local graph shows them before it is drawn too). */
export function graphCaption(pages: number, links: number): string {
  return `${pages} pages · ${links} links · hover to see neighbours, drag to pan, scroll to zoom, click to open`
}
