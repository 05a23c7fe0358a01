// Finds the text the author selected on the rendered page in the page's Markdown source.
import { INVISIBLE, renderedText, type RenderedText } from './source-map/rendered-text'
import type { LinkTargets } from './source-map/wiki-link-text'

export type Located = { start: number; end: number } | { problem: 'missing' | 'ambiguous' }

export type LocateOptions = LinkTargets

function occurrences(haystack: string, needle: string): number[] {
  const found: number[] = []
  for (let index = haystack.indexOf(needle); index !== -1; index = haystack.indexOf(needle, index + 1)) found.push(index)
  return found
}

/** A selection as the page's text is folded: invisible characters dropped, white space runs as one space. */
export function foldSelection(selection: string): string {
  return selection.replace(INVISIBLE, '').replace(/\s+/g, ' ').trim()
}

/**
 * Where the rendered text `[from, to)` came from. A range that starts inside a link, emphasis or code
 * span and ends past it (or the reverse) takes in the whole construct, so replacing it leaves no stray mark.
 */
export function sourceRange(rendered: RenderedText, from: number, to: number): { start: number; end: number } {
  let start = rendered.starts[from]!
  let end = rendered.ends[to - 1]!
  for (let changed = true; changed; ) {
    changed = false
    for (const construct of rendered.constructs) {
      if (start > construct.start && start < construct.end && end > construct.end) (start = construct.start), (changed = true)
      if (end > construct.start && end < construct.end && start < construct.start) (end = construct.end), (changed = true)
    }
  }
  return { start, end }
}

// An edit locates its selection, then locates it again in the same page to re-apply it: keep the last map.
let last: { source: string; targets: LocateOptions; rendered: RenderedText } | null = null

function renderedOnce(source: string, targets: LocateOptions): RenderedText {
  if (last?.source !== source || last.targets.titleOf !== targets.titleOf || last.targets.hasAttachment !== targets.hasAttachment) {
    last = { source, targets, rendered: renderedText(source, targets) }
  }
  return last.rendered
}

/** Found in the text the page renders (through a source map); else found as written, for Markdown the author copied. */
export function locateSelection(source: string, selection: string, options: LocateOptions = {}): Located {
  const wanted = foldSelection(selection)
  if (!wanted) return { problem: 'missing' }
  const rendered = renderedOnce(source, options)
  const found = occurrences(rendered.text, wanted)
  if (found.length > 1) return { problem: 'ambiguous' }
  if (found.length === 1) return sourceRange(rendered, found[0]!, found[0]! + wanted.length)
  const raw = selection.trim()
  const exact = occurrences(source, raw)
  if (exact.length === 1) return { start: exact[0]!, end: exact[0]! + raw.length }
  return { problem: exact.length > 1 ? 'ambiguous' : 'missing' }
}
