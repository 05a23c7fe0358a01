// Model text about to become part of a page. VitePress renders Markdown with raw HTML on, compiles
// the page as a Vue template, applies `{…}` attribute blocks and imports `<<<` snippets, so a model's
// text could otherwise run script in the author's tab (and read the API token). Outside code, every
// `<` and `{` becomes an entity (VitePress keeps entities, so the page reads the same) and script or
// style blocks are dropped; fenced and inline code stay byte-identical.
import { SkillError } from '../api/errors'
import { SAFE_ATTRIBUTES, VUE_FENCE, V_PRE_CLOSE, V_PRE_OPEN, firstWord, liveConstructs, matchAt, parser } from './live-markdown'

export { liveConstructs } from './live-markdown'

export type Neutralized = 'script' | 'html' | 'interpolation' | 'attributes' | 'script-url' | 'vue-code'

export interface SanitizedMarkdown {
  markdown: string
  /** What was made inert, for the author to see. */
  neutralized: Neutralized[]
}

const NEUTRALIZED_NAMES: Record<Neutralized, string> = {
  script: 'a script or style block (removed)',
  html: 'HTML tags',
  interpolation: 'Vue {{ }} expressions',
  attributes: '{…} attribute blocks',
  'script-url': 'javascript: links',
  'vue-code': 'a code block Vue would run',
}

/** One sentence for the approval card about what was made inert. */
export function neutralizedNotice(kinds: readonly Neutralized[]): string {
  const names = kinds.map((kind) => NEUTRALIZED_NAMES[kind])
  return `The model's text had ${names.join(', ')}; it was made inert and shows as plain text, so nothing in it can run in your pages.`
}

/** For a model's text that replaces `original` inside a page: the page around it. */
export interface Surroundings {
  before: string
  original: string
  after: string
}

const VUE_FENCE_INFO = /((?:`{3,}|~{3,})[ \t]*[^\s`]*?)-vue(?=:|\s|$)/
const SCRIPT_TAG = /<(script|style)\b/iy
const SCRIPT_URL = /(?:java|vb)script:/iy
// `<<<` imports a file into the page (VitePress snippets), so it counts as a tag.
const TAG_START = /[A-Za-z/!?<]/
const ESCAPABLE = /[!-/:-@[-`{-~]/
const ZERO_WIDTH_SPACE = '\u200B'

interface Layout {
  fenced: Set<number>
  indented: Set<number>
  /** Opening lines of `-vue` fences, which VitePress compiles as Vue instead of showing. */
  vueFences: Set<number>
}

interface Scan {
  start: number
  end: number
  /** Inline code spans in the model's text are not trusted to be code (a retry after a failed check). */
  strict: boolean
  found: Set<Neutralized>
  /** The tag of a script or style block being dropped, across lines. */
  removing: string | null
}

function layoutOf(markdown: string): Layout {
  const layout: Layout = { fenced: new Set(), indented: new Set(), vueFences: new Set() }
  for (const token of parser.parse(markdown, {})) {
    if (!token.map || (token.type !== 'fence' && token.type !== 'code_block')) continue
    const lines = token.type === 'fence' ? layout.fenced : layout.indented
    for (let line = token.map[0]; line < token.map[1]; line++) lines.add(line)
    if (token.type === 'fence' && VUE_FENCE.test(firstWord(token.info))) layout.vueFences.add(token.map[0])
  }
  return layout
}

/** Breaks each `{{` inside [from, to) of `text` (which starts at `offset`) with an invisible space. */
function breakMustaches(text: string, offset: number, scan: Scan): string {
  let out = ''
  for (let index = 0; index < text.length; index++) {
    const here = offset + index
    if (text[index] === '{' && text[index - 1] === '{' && here >= scan.start && here < scan.end) {
      out += ZERO_WIDTH_SPACE
      scan.found.add('interpolation')
    }
    out += text[index]
  }
  return out
}

function codeSpan(span: string, offset: number, scan: Scan): string {
  if (!span.includes('{{')) return span
  if (offset >= scan.start && offset + span.length <= scan.end) {
    scan.found.add('interpolation')
    return `${V_PRE_OPEN}${span}${V_PRE_CLOSE}`
  }
  return breakMustaches(span, offset, scan)
}

/** A line outside code: escapes in the model's part, code spans kept. */
function scanText(line: string, lineStart: number, scan: Scan): string {
  let out = ''
  let index = 0
  while (index < line.length) {
    const offset = lineStart + index
    const here = offset >= scan.start && offset < scan.end
    if (scan.removing) {
      if (!here) {
        scan.removing = null
        continue
      }
      const closing = new RegExp(`</${scan.removing}\\s*>`, 'i').exec(line.slice(index))
      const stop = Math.min(closing ? index + closing.index + closing[0].length : line.length, scan.end - lineStart)
      if (closing && index + closing.index + closing[0].length <= stop) scan.removing = null
      index = stop
      continue
    }
    const character = line[index]!
    const next = line[index + 1] ?? ''
    if (character === '\\' && ESCAPABLE.test(next)) {
      const nextHere = offset + 1 >= scan.start && offset + 1 < scan.end
      // `\{` and `\<` render as the bare character, so they get the same entity (without the backslash).
      if (nextHere && (next === '{' || next === '<')) {
        out += `${here ? '' : '\\'}${next === '{' ? '&#123;' : '&lt;'}`
        if (next === '{' && /^\\?\{/.test(line.slice(index + 2))) scan.found.add('interpolation')
      } else out += character + next
      index += 2
      continue
    }
    if (character === '`' && !(scan.strict && here)) {
      const run = matchAt(/`+/y, line, index)![0].length
      let close = line.indexOf('`'.repeat(run), index + run)
      while (close !== -1 && (line[close + run] === '`' || line[close - 1] === '`')) {
        close = line.indexOf('`'.repeat(run), matchAt(/`+/y, line, close)![0].length + close)
      }
      if (close === -1) {
        out += line.slice(index, index + run)
        index += run
        continue
      }
      out += codeSpan(line.slice(index, close + run), offset, scan)
      index = close + run
      continue
    }
    if (!here) {
      out += character
      index++
    } else if (character === '<') {
      const tag = matchAt(SCRIPT_TAG, line, index)
      if (tag) {
        scan.removing = tag[1]!.toLowerCase()
        scan.found.add('script')
        continue
      }
      if (TAG_START.test(next)) scan.found.add('html')
      out += '&lt;'
      index++
    } else if (character === '{') {
      const safe = matchAt(SAFE_ATTRIBUTES, line, index)
      if (safe && offset + safe[0].length <= scan.end) {
        out += safe[0]
        index += safe[0].length
        continue
      }
      if (next === '{') scan.found.add('interpolation')
      else if (/^\{[^}]*[=@:][^}]*\}/.test(line.slice(index))) scan.found.add('attributes')
      out += '&#123;'
      index++
    } else if (matchAt(SCRIPT_URL, line, index) && !/\w/.test(line[index - 1] ?? '')) {
      const scheme = matchAt(SCRIPT_URL, line, index)![0]
      out += `${scheme.slice(0, -1)}&#58;`
      scan.found.add('script-url')
      index += scheme.length
    } else {
      out += character
      index++
    }
  }
  return out
}

function sanitizeLines(source: string, scan: Scan): string {
  const layout = layoutOf(source)
  let offset = 0
  return source
    .split('\n')
    .map((line, number) => {
      const lineStart = offset
      offset += line.length + 1
      if (lineStart + line.length < scan.start || lineStart >= scan.end) return line
      if (layout.indented.has(number)) return breakMustaches(line, lineStart, scan)
      if (!layout.fenced.has(number)) return scanText(line, lineStart, scan)
      const info = layout.vueFences.has(number) ? VUE_FENCE_INFO.exec(line) : null
      if (!info || lineStart + info.index + info[1]!.length < scan.start) return line
      scan.found.add('vue-code')
      return line.replace(VUE_FENCE_INFO, '$1')
    })
    .join('\n')
}

/**
 * Makes a model's Markdown inert. With `surroundings`, the text is sanitized in its place in the
 * page (so code around it stays code) and the page must not gain anything live. Throws
 * ERR_UNSAFE_MARKDOWN when even the strict pass leaves something live.
 */
export function sanitizeMarkdown(text: string, surroundings?: Surroundings): SanitizedMarkdown {
  const before = surroundings?.before ?? ''
  const after = surroundings?.after ?? ''
  const allowed = surroundings ? liveConstructs(before + surroundings.original + after) : 0
  for (const strict of [false, true]) {
    const scan: Scan = { start: before.length, end: before.length + text.length, strict, found: new Set(), removing: null }
    const page = sanitizeLines(before + text + after, scan)
    if (liveConstructs(page) > allowed) continue
    return { markdown: page.slice(before.length, page.length - after.length), neutralized: [...scan.found] }
  }
  throw new SkillError(
    'ERR_UNSAFE_MARKDOWN',
    surroundings
      ? 'The rewritten text would make part of the page run as HTML or Vue code (it opens or closes a code block or code span), so nothing was changed. Select whole paragraphs or a whole code block and ask again.'
      : 'The model wrote Markdown that could not be made safe to put in a page, so nothing was written. Ask again, perhaps for plainer text.',
  )
}
