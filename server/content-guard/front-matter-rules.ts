// Front matter is parsed by gray-matter before Markdown. Its non-YAML engines run code (`---js`
// evaluates JavaScript), YAML anchors and aliases can expand exponentially, and VitePress's default
// theme renders some values (hero and feature texts) as HTML. None of that can be made inert without
// changing what the author meant, so these rules refuse rather than rewrite.
import type { Refusal } from './verdict.js'

/** Where a page's front matter is: lines `start`…`end` (the closing `---`, or the last line when unclosed). */
export interface FrontMatterBlock {
  end: number
  /** What follows the opening `---` (gray-matter's engine name); '' for YAML. */
  language: string
  closed: boolean
}

export const FRONT_MATTER_LIMIT = 64 * 1024
const BYTE_ORDER_MARK = '\uFEFF'

/** gray-matter's reading: `---` at the very start (not `----`), closed by the next line that starts with `---`. */
export function findFrontMatter(lines: readonly string[]): FrontMatterBlock | null {
  const first = (lines[0] ?? '').replace(BYTE_ORDER_MARK, '')
  if (!first.startsWith('---') || first[3] === '-') return null
  for (let index = 1; index < lines.length; index++) {
    if (lines[index]!.startsWith('---')) return { end: index, language: first.slice(3).trim(), closed: true }
  }
  return { end: lines.length - 1, language: first.slice(3).trim(), closed: false }
}

// A YAML node property or alias where a value may start: `&anchor`, `*alias`, `!tag`, `!!js/function`.
const NODE_START = /(?:^[ \t]*(?:-[ \t]+)*|[:,[{][ \t]*|\?[ \t]+)[&*!](?=[^\s,\]}])/
const TAG_START = /<[A-Za-z/!?]|\\(?:x3c|u003c|U0000003c)/i
const HEAD_KEY = /(?:^|[{,][ \t]*)["']?head["']?[ \t]*:/
// The theme turns some values into links (hero actions, features): no script-capable URLs.
const SCRIPT_URL = /(?:^|[^A-Za-z0-9])(?:javascript|vbscript|livescript|data)[ \t]*(?::|\\x3a|\\u003a)(?=[^\s"'])/i

/** The YAML line with its quoted strings and comment blanked out, so only its structure is read. */
function structureOf(line: string): string {
  let out = ''
  let quote: string | null = null
  for (let index = 0; index < line.length; index++) {
    const character = line[index]!
    if (quote) {
      if (character === '\\' && quote === '"') index++
      else if (character === quote) {
        if (quote === "'" && line[index + 1] === "'") index++
        else quote = null
      }
      out += ' '
      continue
    }
    if ((character === '"' || character === "'") && /(?:^|[\s:,[{-])$/.test(out.slice(-1) || ' ')) quote = character
    else if (character === '#' && /\s/.test(line[index - 1] ?? ' ')) break
    out += character
  }
  return out
}

/** The first rule a changed front-matter line breaks, or null. */
export function judgeFrontMatterLine(line: string, number: number): Refusal | null {
  const where = `line ${number + 1}`
  if (NODE_START.test(structureOf(line))) {
    return {
      line: number + 1,
      construct: 'front-matter-yaml',
      message: `${where}: front matter may not use YAML anchors, aliases or tags (\`&name\`, \`*name\`, \`!tag\`); found \`${preview(line)}\`. Write the value out in full, in quotes if it starts with one of those characters.`,
    }
  }
  if (TAG_START.test(line)) {
    return {
      line: number + 1,
      construct: 'front-matter-html',
      message: `${where}: front matter may not contain HTML tags (VitePress's theme shows some values as HTML); found \`${preview(line)}\`. Write the value as plain text.`,
    }
  }
  if (SCRIPT_URL.test(line)) {
    return {
      line: number + 1,
      construct: 'front-matter-url',
      message: `${where}: front matter may not hold a javascript:, vbscript: or data: URL (the theme makes some values into links); found \`${preview(line)}\`. Use an http(s) or site-relative link.`,
    }
  }
  if (HEAD_KEY.test(line)) {
    return {
      line: number + 1,
      construct: 'front-matter-head',
      message: `${where}: front matter may not set \`head\` (it adds tags, scripts included, to the page's <head>). Ask the author to add it by hand.`,
    }
  }
  return null
}

export function judgeFrontMatterBlock(lines: readonly string[], block: FrontMatterBlock, changed: ReadonlySet<number>): Refusal | null {
  // A non-YAML engine runs the whole block: refused when the writer adds the engine or any line to it.
  const touchesBlock = [...changed].some((line) => line <= block.end)
  if (block.language !== '' && touchesBlock) {
    return {
      line: 1,
      construct: 'front-matter-engine',
      message: `line 1: front matter must be YAML; found \`---${preview(block.language)}\`, whose engine would run code. Start the page with a plain \`---\` line.`,
    }
  }
  let touched = false
  let size = 0
  for (let index = 0; index <= block.end; index++) {
    size += lines[index]!.length + 1
    if (!changed.has(index)) continue
    touched = true
    if (index === 0 || (index === block.end && block.closed)) continue
    const refusal = judgeFrontMatterLine(lines[index]!, index)
    if (refusal) return refusal
  }
  if (touched && size > FRONT_MATTER_LIMIT) {
    return {
      line: 1,
      construct: 'front-matter-size',
      message: `line 1: front matter is ${Math.ceil(size / 1024)} KiB; the limit is ${FRONT_MATTER_LIMIT / 1024} KiB. Move long text into the page body.`,
    }
  }
  return null
}

/** A short, single-line sample of what was found, for messages. */
export function preview(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim()
  return flat.length > 60 ? `${flat.slice(0, 57)}…` : flat
}
