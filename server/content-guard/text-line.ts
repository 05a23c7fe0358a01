// One line of Markdown text (outside code blocks and front matter) made inert for VitePress: tags and
// `{` become entities (VitePress keeps entities, so the page reads the same), script URLs lose their
// colon and stop being links, and inline code is kept as written, wrapped in v-pre when it holds `{{`.
import { SAFE_ATTRIBUTES, V_PRE_CLOSE, V_PRE_OPEN, matchAt } from './live-constructs.js'
import type { NeutralizedConstruct } from './verdict.js'

const ESCAPABLE = /[!-/:-@[-`{-~]/
const AUTOLINK = /<(?:https?|mailto):[^\s<>"'`{}\\]*>/iy
const SCRIPT_TAG = /<\/?(?:script|style)\b/iy
const TAG_START = /[A-Za-z/!?]/
const ATTRIBUTE_BLOCK = /\{[^}]*[=@:][^}]*\}/y
/** A letter as written or as a numeric entity, which markdown-it decodes in link destinations. */
function letterPattern(letter: string): string {
  const code = letter.charCodeAt(0)
  const upper = letter.toUpperCase().charCodeAt(0)
  return `(?:${letter}|&#0*(?:${code}|${upper});?|&#x0*(?:${code.toString(16)}|${upper.toString(16)});?)`
}

const SCHEMES = ['javascript', 'vbscript', 'livescript', 'data'].map((scheme) => [...scheme].map(letterPattern).join('')).join('|')
// A script-capable URL scheme, letters or colon possibly written as entities; not prose such as "data: 5".
const SCRIPT_SCHEME = new RegExp(`(${SCHEMES})[ \\t]*(?::|&colon;|&#0*58;?|&#x0*3a;?)(?=\\S)`, 'iy')
const BACKTICKS = /`+/y
const ZERO_WIDTH_SPACE = '\u200B'

export interface LineScan {
  /** Inline code is not trusted to be code (a second pass, after the first left something live). */
  strict: boolean
  found: Set<NeutralizedConstruct>
  /** Set when a code span the strict pass would rewrite was kept as written, which only a parse of the whole page can confirm. */
  trusted: boolean
}

/** The end of the code span whose opening backticks start at `index`, or -1. */
function codeSpanEnd(line: string, index: number): number {
  const run = matchAt(BACKTICKS, line, index)![0].length
  for (let close = line.indexOf('`', index + run); close !== -1; ) {
    const length = matchAt(BACKTICKS, line, close)![0].length
    if (length === run) return close + run
    close = line.indexOf('`', close + length)
  }
  return -1
}

/** A code span already wrapped as `<span v-pre>`…`</span>` (what this guard writes), kept as is. */
function wrappedSpanEnd(line: string, index: number): number {
  if (!line.startsWith(V_PRE_OPEN, index) || line[index + V_PRE_OPEN.length] !== '`') return -1
  const end = codeSpanEnd(line, index + V_PRE_OPEN.length)
  return end !== -1 && line.startsWith(V_PRE_CLOSE, end) ? end + V_PRE_CLOSE.length : -1
}

function inertTag(line: string, index: number, scan: LineScan): { text: string; length: number } {
  const autolink = matchAt(AUTOLINK, line, index)
  if (autolink) return { text: autolink[0], length: autolink[0].length }
  const next = line[index + 1] ?? ''
  // A `<` that cannot open a tag (`a < b`) is left as written.
  if (!TAG_START.test(next)) return { text: '<', length: 1 }
  scan.found.add(matchAt(SCRIPT_TAG, line, index) ? 'script' : 'html')
  return { text: '&lt;', length: 1 }
}

function inertBrace(line: string, index: number, scan: LineScan): { text: string; length: number } {
  const safe = matchAt(SAFE_ATTRIBUTES, line, index)
  if (safe) return { text: safe[0], length: safe[0].length }
  if (/^\{(?:\{|&#0*123;|&#x0*7b;)/i.test(line.slice(index, index + 9))) scan.found.add('interpolation')
  // The second brace of `{{` is part of the interpolation already reported.
  else if (line[index - 1] !== '{' && matchAt(ATTRIBUTE_BLOCK, line, index)) scan.found.add('attributes')
  return { text: '&#123;', length: 1 }
}

/**
 * Escapes the `(` or `[` that makes what follows a link or image destination, so the URL shows as
 * text: a rewritten URL that stayed a link would be a dead link or a missing image to `vitepress build`.
 */
function breakLinkBefore(out: string): string {
  const inline = /\(([ \t]*(?:<|&lt;)?[ \t]*)$/.exec(out)
  if (inline) return `${out.slice(0, inline.index)}\\(${inline[1]}`
  const definition = /^([ \t]{0,3})\[([^\]]*\]:[ \t]*(?:<|&lt;)?[ \t]*)$/.exec(out)
  return definition ? `${definition[1]}\\[${definition[2]}` : out
}

export function inertTextLine(line: string, scan: LineScan): string {
  let out = ''
  let index = 0
  while (index < line.length) {
    const character = line[index]!
    const next = line[index + 1] ?? ''
    if (character === '\\' && ESCAPABLE.test(next)) {
      // `\{` renders as a bare `{`, so it becomes the entity; other escapes already render as text.
      if (next === '{') {
        if (/^\\?\{/.test(line.slice(index + 2, index + 4))) scan.found.add('interpolation')
        out += '&#123;'
      } else out += character + next
      index += 2
      continue
    }
    if (!scan.strict && character === '<') {
      const wrapped = wrappedSpanEnd(line, index)
      if (wrapped !== -1) {
        out += line.slice(index, wrapped)
        scan.trusted = true
        index = wrapped
        continue
      }
    }
    if (character === '`') {
      const end = scan.strict ? -1 : codeSpanEnd(line, index)
      const run = matchAt(BACKTICKS, line, index)![0]
      if (end === -1) {
        out += run
        index += run.length
        continue
      }
      const span = line.slice(index, end)
      // Only a span the strict pass would rewrite needs the whole-page check.
      if (!scan.trusted && inertTextLine(span, { strict: true, found: new Set(), trusted: false }) !== span) scan.trusted = true
      if (span.includes('{{')) scan.found.add('interpolation')
      out += span.includes('{{') ? `${V_PRE_OPEN}${span}${V_PRE_CLOSE}` : span
      index = end
      continue
    }
    const scheme = /[A-Za-z0-9]/.test(line[index - 1] ?? '') ? null : matchAt(SCRIPT_SCHEME, line, index)
    let piece: { text: string; length: number }
    if (scheme) {
      scan.found.add('script-url')
      out = breakLinkBefore(out)
      piece = { text: `${scheme[1]}%3A`, length: scheme[0].length }
    } else if (character === '<') piece = inertTag(line, index, scan)
    else if (character === '{') piece = inertBrace(line, index, scan)
    else piece = { text: character, length: 1 }
    out += piece.text
    index += piece.length
  }
  return out
}

/** A line of indented code: markdown-it gives it no v-pre, so `{{` is broken with an invisible space. */
export function inertIndentedCode(line: string, scan: LineScan): string {
  if (!line.includes('{{')) return line
  scan.found.add('interpolation')
  return line.replace(/\{(?=\{)/g, `{${ZERO_WIDTH_SPACE}`)
}
