// The text a reader sees on a rendered page, each character tied to the Markdown that produced it.
import type { Token } from 'markdown-it'
import { FRONT_MATTER } from '../markdown'
import { createTrackingParser, type Extent, type TrackingParser } from './tracking-parser'
import type { LinkTargets } from './wiki-link-text'

export interface RenderedText {
  /** White space folded to single spaces, as a selection is once folded. */
  text: string
  /** Source range `[starts[i], ends[i])` produced `text[i]`; a whole link or entity for text it renders atomically. */
  starts: number[]
  ends: number[]
  /** Source ranges of constructs (links, emphasis, code, images) a replacement must not cut in half. */
  constructs: Array<{ start: number; end: number }>
}

const WHITE_SPACE = /\s/
// Zero-width characters (VitePress's heading anchors hold one) are invisible in a selection too.
export const INVISIBLE = /[\u200B-\u200D\uFEFF]/g
const INVISIBLE_CHARACTER = /[\u200B-\u200D\uFEFF]/

// Characters are collected in an array: asking a string built one character at a time how it ends flattens it each time.
class TextBuilder {
  chars: string[] = []
  starts: number[] = []
  ends: number[] = []
  constructs: Array<{ start: number; end: number }> = []

  add(char: string, start: number, end: number): void {
    if (INVISIBLE_CHARACTER.test(char)) return
    if (WHITE_SPACE.test(char)) {
      if (this.chars.length === 0 || this.chars.at(-1) === ' ') return
      char = ' '
    }
    this.chars.push(char)
    this.starts.push(start)
    this.ends.push(end)
  }

  space(at: number): void {
    this.add(' ', at, at)
  }
}

/** Offsets in the page of each line's start, and a way to find a block's text lines in them. */
function lineStarts(source: string): number[] {
  const starts = [0]
  for (let index = source.indexOf('\n'); index !== -1; index = source.indexOf('\n', index + 1)) starts.push(index + 1)
  return starts
}

/** Where one line of a block's text sits in its source line: after block markers; table cells unescape `\|`. */
function findLine(lineText: string, line: string, from: number): number[] | null {
  const at = lineText.endsWith(line) && lineText.length - line.length >= from ? lineText.length - line.length : lineText.indexOf(line, from)
  if (at !== -1) return Array.from({ length: line.length }, (_unused, index) => at + index)
  const escaped = lineText.indexOf(line.replaceAll('|', '\\|'), from)
  if (escaped === -1) return null
  const offsets: number[] = []
  for (let index = escaped; offsets.length < line.length; index++) if (!(lineText[index] === '\\' && lineText[index + 1] === '|')) offsets.push(index)
  return offsets
}

/** Offsets in the page of each character of an inline token's content (and of its end), found line by line. */
function contentOffsets(token: Token, firstLine: number, source: string, starts: number[], cursors: Map<number, number>): number[] | null {
  const offsets: number[] = []
  const lines = token.content.split('\n')
  for (let index = 0; index < lines.length; index++) {
    const lineNumber = firstLine + index
    const lineStart = starts[lineNumber]
    if (lineStart === undefined) return null
    const lineText = source.slice(lineStart, (starts[lineNumber + 1] ?? source.length + 1) - 1)
    // Table cells share a line, so each search goes on from the last one.
    const found = findLine(lineText, lines[index]!, cursors.get(lineNumber) ?? 0)
    if (!found) return null
    const lineEnd = (found.at(-1) ?? (cursors.get(lineNumber) ?? 0) - 1) + 1
    cursors.set(lineNumber, lineEnd)
    for (const offset of found) offsets.push(lineStart + offset)
    offsets.push(lineStart + lineEnd)
  }
  return offsets
}

function walkInline(children: Token[], parser: TrackingParser, toSource: (offset: number) => number, content: string, out: TextBuilder): void {
  const opened: Token[] = []
  const span = (extent: Extent | undefined): { start: number; end: number } | null => {
    if (!extent) return null
    if (extent.kind === 'span') return { start: toSource(extent.start), end: toSource(extent.end - 1) + 1 }
    if (extent.positions.length === 0) return null
    return { start: toSource(extent.positions[0]!), end: toSource(extent.positions.at(-1)!) + 1 }
  }
  for (const token of children) {
    const extent = parser.extentOf(token)
    const range = span(extent)
    if (!range) continue
    if (token.type === 'text' || token.type === 'text_special') {
      if (extent?.kind === 'chars' && extent.positions.length === token.content.length) {
        extent.positions.forEach((position, index) => out.add(token.content[index]!, toSource(position), toSource(position) + 1))
      } else for (let index = 0; index < token.content.length; index++) out.add(token.content[index]!, range.start, range.end)
    } else if (token.type === 'code_inline' && extent?.kind === 'span') {
      out.constructs.push(range)
      // markdown-it drops one space on each side of the code when both are there.
      const innerStart = extent.start + token.markup.length
      const inner = content.slice(innerStart, extent.end - token.markup.length)
      const first = toSource(innerStart + (inner.length === token.content.length ? 0 : 1))
      for (let index = 0; index < token.content.length; index++) out.add(token.content[index]!, first + index, first + index + 1)
    } else if (token.type === 'softbreak' || token.type === 'hardbreak' || (token.type === 'html_inline' && /^<br\b/i.test(token.content))) {
      out.space(range.start)
    } else if (token.type === 'image') {
      out.constructs.push(range)
    } else if (token.nesting === 1) opened.push(token)
    else if (token.nesting === -1) {
      const open = opened.pop()
      const start = open ? span(parser.extentOf(open)) : null
      if (!open || !start) continue
      // A strong run's open token is its second mark and its close token its first: widen to the whole run.
      const extra = (mark: Token, covered: { start: number; end: number }) => Math.max(0, mark.markup.length - (covered.end - covered.start))
      out.constructs.push({ start: start.start - extra(open, start), end: range.end + extra(token, range) })
    }
  }
}

function walkCode(token: Token, bodyOffset: number, starts: number[], out: TextBuilder): void {
  // A fenced block's text starts on the line after its fence; an indented one's on its first line.
  if (!token.map) return
  let line = token.map[0] + (token.type === 'fence' ? 1 : 0)
  for (const text of token.content.split('\n')) {
    const lineStart = starts[line++]
    if (lineStart === undefined) break
    for (let index = 0; index < text.length; index++) out.add(text[index]!, bodyOffset + lineStart + index, bodyOffset + lineStart + index + 1)
    out.space(bodyOffset + lineStart + text.length)
  }
}

/** The rendered text of a page (front matter left out) with its map back to the source. */
export function renderedText(source: string, targets: LinkTargets = {}): RenderedText {
  const front = FRONT_MATTER.exec(source)
  const bodyOffset = front ? front[0].length : 0
  const body = source.slice(bodyOffset)
  const parser = createTrackingParser(targets)
  const starts = lineStarts(body)
  const cursors = new Map<number, number>()
  const out = new TextBuilder()
  // Table cells carry no line numbers: their row's does.
  let line = 0
  for (const token of parser.parse(body)) {
    if (token.map) line = token.map[0]
    if (token.type === 'inline' && token.children) {
      const offsets = contentOffsets(token, line, body, starts, cursors)
      if (offsets) walkInline(token.children, parser, (offset) => bodyOffset + offsets[offset]!, token.content, out)
    } else if (token.type === 'fence' || token.type === 'code_block') walkCode(token, bodyOffset, starts, out)
    else if (token.map) out.space(bodyOffset + (starts[token.map[0]] ?? 0))
    else out.space(out.ends.at(-1) ?? bodyOffset)
  }
  if (out.chars.at(-1) === ' ') out.chars.pop()
  const length = out.chars.length
  return { text: out.chars.join(''), starts: out.starts.slice(0, length), ends: out.ends.slice(0, length), constructs: out.constructs }
}
