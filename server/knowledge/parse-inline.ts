import { UNRESOLVED, type Resolution } from './resolver.js'
import { parseWikiInner } from './wiki-syntax.js'

export interface ParsedLink {
  /** `[[wiki]]` or an ordinary `[text](page.md)` link. */
  syntax: 'wiki' | 'markdown'
  /** Wiki: the page part as written. Markdown: the URL without its fragment, decoded. */
  target: string
  heading: string | undefined
  label: string | undefined
  /** `![[…]]`. */
  embed: boolean
  /** Where the link starts in the page's full content (front matter included). */
  offset: number
  /** 1-based line of the link in the page's full content. */
  line: number
  /** Where the link leads: filled in when the page joins an index. */
  resolution: Resolution
}

const MARKDOWN_LINK =
  /\[((?:[^[\]\\]|\\.|\[(?:[^[\]\\]|\\.)*\])*)\]\(\s*(<[^<>\n]*>|(?:[^\s()\\]|\\.|\((?:[^\s()\\]|\\.)*\))+)(?:\s+(?:"[^"\n]*"|'[^'\n]*'|\([^()\n]*\)))?\s*\)/y
// Comments (`<!--…-->`) are found by hand: a lazy scan for '-->' would rescan the rest for every unclosed one.
const INLINE_HTML = /<\/?[A-Za-z][A-Za-z0-9-]*(?:\s[^<>]*)?\/?>|<[A-Za-z][A-Za-z0-9+.-]{1,31}:[^<>\s]*>/y
const EXTERNAL = /^(?:[a-z][a-z0-9+.-]*:|\/\/)/i
const PAGE_EXTENSION = /\.(?:md|html)$/i

function lineAt(text: string, from: number, to: number, startLine: number): number {
  let line = startLine
  for (let index = text.indexOf('\n', from); index !== -1 && index < to; index = text.indexOf('\n', index + 1)) line++
  return line
}

/** Where the last backtick run of each length starts in `text`: one pass, so an unclosed run costs no rescan. */
function lastRunStarts(text: string): Map<number, number> {
  const starts = new Map<number, number>()
  for (let at = text.indexOf('`'); at !== -1; ) {
    let end = at
    while (text.charCodeAt(end) === 96) end++
    starts.set(end - at, at)
    at = text.indexOf('`', end)
  }
  return starts
}

/** The end of the code span opening at `start` (a run of backticks), or -1 if it never closes. */
function codeSpanEnd(text: string, start: number, lastRuns: Map<number, number>): { runEnd: number; end: number } {
  let runEnd = start
  while (text.charCodeAt(runEnd) === 96) runEnd++
  const run = runEnd - start
  // No later run of that length: searching for one would read the rest of the text for nothing.
  if ((lastRuns.get(run) ?? -1) < runEnd) return { runEnd, end: -1 }
  let search = runEnd
  for (;;) {
    const close = text.indexOf('`', search)
    if (close === -1) return { runEnd, end: -1 }
    let closeEnd = close
    while (text.charCodeAt(closeEnd) === 96) closeEnd++
    if (closeEnd - close === run) return { runEnd, end: closeEnd }
    search = closeEnd
  }
}

/** Where the run of `code` characters starting at `start` ends. */
function runEnd(text: string, start: number, code: number): number {
  let end = start
  while (text.charCodeAt(end) === code) end++
  return end
}

/** A markdown link's destination when it points at a page of the site, else null. */
function pageDestination(raw: string): string | null {
  let destination = raw.startsWith('<') ? raw.slice(1, -1) : raw
  if (destination.includes('\\')) destination = destination.replace(/\\(.)/g, '$1')
  if (!destination || destination.startsWith('#') || EXTERNAL.test(destination)) return null
  // The path ends at the query or the fragment (a destination holds no line break).
  let end = destination.length
  for (let index = 0; index < end; index++) {
    const code = destination.charCodeAt(index)
    if (code === 63 /* ? */ || code === 35 /* # */) end = index
  }
  const path = end === destination.length ? destination : destination.slice(0, end)
  // A page: its last segment has no extension (so also a path ending in '/'), or ends in .md or .html.
  if (!path || (path.includes('.', path.lastIndexOf('/') + 1) && !PAGE_EXTENSION.test(path))) return null
  if (!path.includes('%')) return path
  try {
    return decodeURI(path)
  } catch {
    return path
  }
}

function headingOf(destination: string): string | undefined {
  const hash = destination.indexOf('#')
  if (hash === -1 || hash === destination.length - 1) return undefined
  const fragment = destination.slice(hash + 1)
  try {
    return decodeURIComponent(fragment)
  } catch {
    return fragment
  }
}

/**
 * Every link object has the same shape (absent parts are undefined), which keeps property access
 * fast, and is created once: the index fills in its resolution rather than copying it.
 */
function makeLink(
  syntax: ParsedLink['syntax'],
  target: string,
  heading: string | undefined,
  label: string | undefined,
  embed: boolean,
  offset: number,
  line: number,
): ParsedLink {
  return { syntax, target, heading, label, embed, offset, line, resolution: UNRESOLVED }
}

/** The smallest of four positions, ignoring -1 (not found); -1 if all are. */
function earliest(first: number, second: number, third: number, fourth: number): number {
  let found = -1
  if (first !== -1) found = first
  if (second !== -1 && (found === -1 || second < found)) found = second
  if (third !== -1 && (found === -1 || third < found)) found = third
  if (fourth !== -1 && (found === -1 || fourth < found)) found = fourth
  return found
}

/**
 * Finds the links in one block of prose (a paragraph, a heading, a table), skipping code spans,
 * escaped brackets and inline HTML, the way markdown-it reads them. The next '\\', '`', '[' and
 * '<' are each found with indexOf and remembered: prose is mostly plain text, and indexOf skips
 * it far faster than a per-character loop or a global regular expression.
 */
export function scanInline(text: string, offset: number, startLine: number, links: ParsedLink[]): void {
  let backslash = text.indexOf('\\')
  let backtick = text.indexOf('`')
  let bracket = text.indexOf('[')
  let angle = text.indexOf('<')
  let lastIndex = 0
  let lastLine = startLine
  // Found on first use, then kept while still ahead (-2: not looked for yet; -1: none left), so
  // each is searched for across the text once in all, not once per '[[' or '<!--'.
  let lastRuns: Map<number, number> | null = null
  let closeAt = -2
  let destinationAt = -2
  let openAt = -2
  let newlineAt = -2
  let commentEndAt = -2
  for (let from = 0; ; ) {
    if (backslash !== -1 && backslash < from) backslash = text.indexOf('\\', from)
    if (backtick !== -1 && backtick < from) backtick = text.indexOf('`', from)
    if (bracket !== -1 && bracket < from) bracket = text.indexOf('[', from)
    if (angle !== -1 && angle < from) angle = text.indexOf('<', from)
    const index = earliest(backslash, backtick, bracket, angle)
    if (index === -1) return
    const character = text.charCodeAt(index)
    if (character === 92 /* \ */) {
      from = index + 2
    } else if (character === 96 /* ` */) {
      const span = codeSpanEnd(text, index, (lastRuns ??= lastRunStarts(text)))
      from = span.end === -1 ? span.runEnd : span.end
    } else if (character === 60 /* < */) {
      if (text.startsWith('<!--', index)) {
        if (commentEndAt !== -1 && commentEndAt < index + 4) commentEndAt = text.indexOf('-->', index + 4)
        from = commentEndAt === -1 ? index + 1 : commentEndAt + 3
        continue
      }
      INLINE_HTML.lastIndex = index
      from = INLINE_HTML.test(text) ? INLINE_HTML.lastIndex : index + 1
    } else {
      // Every link ends in ']]' or holds '](': with neither ahead, no link starts here or later.
      if (closeAt !== -1 && closeAt < index + 2) closeAt = text.indexOf(']]', index + 2)
      if (destinationAt !== -1 && destinationAt < index + 1) destinationAt = text.indexOf('](', index + 1)
      if (closeAt === -1 && destinationAt === -1) return
      if (text.charCodeAt(index + 1) === 91 /* [[ */) {
        // A link's inner text holds no line break and no '[[': a later ']]' past either is not its end.
        const inner = index + 2
        const close = closeAt
        if (close !== -1 && newlineAt !== -1 && newlineAt < inner) newlineAt = text.indexOf('\n', inner)
        if (close !== -1 && openAt !== -1 && openAt < inner) openAt = text.indexOf('[[', inner)
        const closes = close !== -1 && (newlineAt === -1 || newlineAt > close) && (openAt === -1 || openAt >= close)
        const parts = closes ? parseWikiInner(text.slice(inner, close)) : null
        if (!parts) {
          from = index + 1
          // In a run of '[', each '[[' short of the last few has another '[[' (or no ']]') before any ']]': skip them.
          if (text.charCodeAt(index + 2) === 91) from = Math.max(from, runEnd(text, index, 91) - (close === -1 ? 1 : 3))
          continue
        }
        const embed = index > 0 && text.charCodeAt(index - 1) === 33 && text.charCodeAt(index - 2) !== 92
        // Attachment links come too; parsePage files them apart from the page links.
        const at = embed ? index - 1 : index
        lastLine = lineAt(text, lastIndex, at, lastLine)
        lastIndex = at
        links.push(makeLink('wiki', parts.target, parts.heading, parts.label, embed, offset + at, lastLine))
        from = close + 2
      } else if (destinationAt === -1) {
        from = index + 1
      } else {
        MARKDOWN_LINK.lastIndex = index
        const link = MARKDOWN_LINK.exec(text)
        if (!link) {
          from = index + 1
          continue
        }
        const isImage = index > 0 && text.charCodeAt(index - 1) === 33
        const destination = isImage ? null : pageDestination(link[2] ?? '')
        if (destination !== null) {
          let raw = link[2] ?? ''
          if (raw.startsWith('<') || raw.endsWith('>')) raw = raw.replace(/^<|>$/g, '')
          const heading = headingOf(raw)
          const label = (link[1] ?? '').trim() || undefined
          lastLine = lineAt(text, lastIndex, index, lastLine)
          lastIndex = index
          links.push(makeLink('markdown', destination, heading, label, false, offset + index, lastLine))
        }
        from = MARKDOWN_LINK.lastIndex
      }
    }
  }
}
