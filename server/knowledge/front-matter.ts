// parsePageMeta (gray-matter + js-yaml) costs more than reading the file. Most front matter is a
// flat list of `key: simple value` lines; for those this reader gives the very same result
// (tests compare the two) in a fraction of the time. Anything else goes to parsePageMeta.
import { pageMetaOf, parsePageMeta, type PageMeta } from '../page-meta.js'

const INTEGER = /^-?(?:0|[1-9][0-9]{0,14})$/
const DATE = /^([0-9]{4})-([0-9]{2})-([0-9]{2})$/
// What js-yaml could read as something other than a plain string: numbers, null, booleans, specials.
const NOT_PLAIN_START = /^[-?:,[\]{}#&*!|>'"%@`\s+.0-9]/
const SPECIAL_WORDS = /^(?:null|~|true|false|yes|no|on|off|y|n)$/i
const NOT_SIMPLE = Symbol('not simple')

type Scalar = string | number | boolean | Date | null

function isBlank(code: number): boolean {
  return code === 32 || code === 9
}

// NOT_PLAIN_START for ASCII first characters, as a table: most values are checked without a regular expression.
const NOT_PLAIN_FIRST = new Uint8Array(128)
for (const character of '-?:,[]{}#&*!|>\'"%@`+.0123456789 \t\n\v\f\r') NOT_PLAIN_FIRST[character.charCodeAt(0)] = 1

function plain(text: string, inFlow: boolean): string | typeof NOT_SIMPLE {
  if (!text) return NOT_SIMPLE
  const first = text.charCodeAt(0)
  if (first < 128 ? NOT_PLAIN_FIRST[first] === 1 : NOT_PLAIN_START.test(text)) return NOT_SIMPLE
  // The longest special word is 'false'.
  if (text.length <= 5 && SPECIAL_WORDS.test(text)) return NOT_SIMPLE
  // One pass for what the rules below say: no ': ', '#' or tab anywhere, no ':' at the end, no flow indicator in a flow.
  const last = text.length - 1
  for (let index = 0; index <= last; index++) {
    const code = text.charCodeAt(index)
    if (code === 35 || code === 9 || (code === 58 && (index === last || text.charCodeAt(index + 1) === 32))) return NOT_SIMPLE
    if (inFlow && (code === 44 || code === 91 || code === 93 || code === 123 || code === 125)) return NOT_SIMPLE
  }
  return text
}

function quoted(text: string): string | typeof NOT_SIMPLE {
  const quote = text[0]
  if ((quote !== '"' && quote !== "'") || text.length < 2 || !text.endsWith(quote)) return NOT_SIMPLE
  const inner = text.slice(1, -1)
  return inner.includes(quote) || inner.includes('\\') ? NOT_SIMPLE : inner
}

function scalar(text: string): Scalar | typeof NOT_SIMPLE {
  if (text === '') return null
  if (text === 'true') return true
  if (text === 'false') return false
  const first = text.charCodeAt(0)
  // Integers and dates start with a digit or '-'.
  if ((first >= 48 && first <= 57) || first === 45) {
    if (INTEGER.test(text)) return Number(text)
    const date = DATE.exec(text)
    // js-yaml's own construction, so even a day out of range rolls over the same way.
    if (date) return new Date(Date.UTC(Number(date[1]), Number(date[2]) - 1, Number(date[3])))
  }
  if (first === 34 || first === 39) return quoted(text)
  return plain(text, false)
}

function sequence(text: string): string[] | typeof NOT_SIMPLE {
  const inner = text.slice(1, -1).trim()
  if (inner === '') return []
  const items: string[] = []
  for (const raw of inner.split(',')) {
    const item = raw.trim()
    const value = item[0] === '"' || item[0] === "'" ? quoted(item) : plain(item, true)
    if (value === NOT_SIMPLE) return NOT_SIMPLE
    items.push(value)
  }
  return items
}

function isKeyStart(code: number): boolean {
  return (code >= 65 && code <= 90) || (code >= 97 && code <= 122) || code === 95
}

function isKeyPart(code: number): boolean {
  return isKeyStart(code) || (code >= 48 && code <= 57) || code === 45
}

// What `.` in a regular expression does not match (besides '\n'), in a value: a '\r' that does not end a line.
const LINE_BREAKING = /\r(?!\n)|[\u2028\u2029]/

/**
 * The data of the front matter `content[start, end)` if every line is a simple `key: value`
 * (blank lines aside, and at least one), else null. Scans in place rather than splitting lines.
 */
function simpleData(content: string, start: number, end: number): Record<string, unknown> | null {
  // Checked once for the whole front matter rather than per value; a line that is only such blanks falls back too.
  if (LINE_BREAKING.test(content.slice(start, end + 1))) return null
  const data: Record<string, unknown> = {}
  let empty = true
  for (let lineStart = start; lineStart <= end; ) {
    let lineEnd = content.indexOf('\n', lineStart)
    if (lineEnd === -1 || lineEnd > end) lineEnd = end
    const next = lineEnd + 1
    if (lineEnd > lineStart && content.charCodeAt(lineEnd - 1) === 13) lineEnd--
    if (!isKeyStart(content.charCodeAt(lineStart))) {
      if (lineEnd > lineStart && content.slice(lineStart, lineEnd).trim() !== '') return null
      lineStart = next
      continue
    }
    // `key:` then either nothing or blanks and a value, as /^([A-Za-z_][A-Za-z0-9_-]*):(?:[ \t]+(.*?))?[ \t]*$/.
    let colon = lineStart + 1
    while (colon < lineEnd && isKeyPart(content.charCodeAt(colon))) colon++
    if (colon === lineEnd || content.charCodeAt(colon) !== 58) return null
    let valueStart = colon + 1
    while (valueStart < lineEnd && isBlank(content.charCodeAt(valueStart))) valueStart++
    let valueEnd = lineEnd
    while (valueEnd > valueStart && isBlank(content.charCodeAt(valueEnd - 1))) valueEnd--
    if (valueStart < valueEnd && valueStart === colon + 1) return null
    const key = content.slice(lineStart, colon)
    const text = content.slice(valueStart, valueEnd)
    if (Object.hasOwn(data, key)) return null
    const value = text.startsWith('[') && text.endsWith(']') ? sequence(text) : scalar(text)
    if (value === NOT_SIMPLE) return null
    data[key] = value
    empty = false
    lineStart = next
  }
  return empty ? null : data
}

/** Same result as `parsePageMeta(relativePath, content)`, faster for simple front matter. */
export function readPageMeta(relativePath: string, content: string): PageMeta {
  return readPage(relativePath, content).meta
}

function fallback(relativePath: string, content: string): { meta: PageMeta; bodyOffset: number } {
  const meta = parsePageMeta(relativePath, content)
  return { meta, bodyOffset: content.endsWith(meta.body) ? content.length - meta.body.length : 0 }
}

/** The page's meta and where its body starts in `content`. */
export function readPage(relativePath: string, content: string): { meta: PageMeta; bodyOffset: number } {
  // gray-matter's rules: '---' then a line break opens; the first '\n---' closes.
  if (!content.startsWith('---\n') && !content.startsWith('---\r\n')) return fallback(relativePath, content)
  const close = content.indexOf('\n---', 3)
  if (close === -1) return fallback(relativePath, content)
  const data = simpleData(content, 3, close)
  if (!data) return fallback(relativePath, content)
  let bodyOffset = close + 4
  if (content.charCodeAt(bodyOffset) === 13) bodyOffset++
  if (content.charCodeAt(bodyOffset) === 10) bodyOffset++
  return { meta: pageMetaOf(relativePath, data, content.slice(bodyOffset)), bodyOffset }
}
