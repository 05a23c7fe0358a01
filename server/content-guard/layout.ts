// What each line of a page is to VitePress: front matter, text, raw HTML, indented code, or part of
// a fence. markdown-it (as VitePress configures it: raw HTML on) gives the block structure.
import { parser } from './live-constructs.js'
import { findFrontMatter, type FrontMatterBlock } from './front-matter-rules.js'

export type LineKind = 'front-matter' | 'text' | 'html' | 'code' | 'fence-open' | 'fence'

export interface Fence {
  open: number
  /** One past the last line (the closing marker, or the page's end when unclosed). */
  end: number
  marker: string
  /** The info string as markdown-it decoded it (entities resolved), which is what VitePress reads. */
  info: string
}

export interface Layout {
  kinds: LineKind[]
  fences: Fence[]
  /** Raw HTML blocks as [first line, one past the last]. */
  htmlBlocks: [number, number][]
  frontMatter: FrontMatterBlock | null
}

export function layoutOf(lines: readonly string[]): Layout {
  const frontMatter = findFrontMatter(lines)
  const bodyStart = frontMatter ? frontMatter.end + 1 : 0
  const kinds: LineKind[] = lines.map((_line, index) => (index < bodyStart ? 'front-matter' : 'text'))
  const layout: Layout = { kinds, fences: [], htmlBlocks: [], frontMatter }
  // Front-matter lines are blanked, not dropped, so markdown-it's line numbers stay the page's.
  const body = lines.map((line, index) => (index < bodyStart ? '' : line)).join('\n')
  for (const token of parser.parse(body, {})) {
    if (!token.map) continue
    const [first, end] = token.map
    if (token.type === 'fence') {
      layout.fences.push({ open: first, end, marker: token.markup, info: token.info })
      kinds[first] = 'fence-open'
      for (let line = first + 1; line < end; line++) kinds[line] = 'fence'
    } else if (token.type === 'code_block') {
      for (let line = first; line < end; line++) kinds[line] = 'code'
    } else if (token.type === 'html_block') {
      layout.htmlBlocks.push([first, end])
      for (let line = first; line < end; line++) kinds[line] = 'html'
    }
  }
  return layout
}

/** A line whose text VitePress shows as code (never compiled): inside a fence or indented code. */
export function isCode(kind: LineKind | undefined): boolean {
  return kind === 'fence' || kind === 'code'
}
