import { scanInline, type ParsedLink } from './parse-inline.js'
import { parseWikiInner } from './wiki-syntax.js'

export interface ParsedHeading {
  level: number
  text: string
  /** An explicit `{#id}`; otherwise VitePress derives the id with `slugify(text)`. */
  id: string | undefined
}

export interface ParsedMarkdown {
  links: ParsedLink[]
  headings: ParsedHeading[]
}

const QUOTE_PREFIX = /^(?: {0,3}>[ \t]?)+/
const FENCE = /^(\s*)(`{3,}|~{3,})(.*)$/
const SETEXT_UNDERLINE = /^ {0,3}(=+|-+)[ \t]*$/
const LIST_ITEM = /^ {0,3}(?:[-+*]|\d{1,9}[.)])(?:[ \t]|$)/
// `---`, `* * *`, `___`: a rule, not text (one '-' or '*' then blanks per step, so no backtracking).
const THEMATIC_BREAK = /^ {0,3}(?:(?:-[ \t]*){3,}|(?:\*[ \t]*){3,}|(?:_[ \t]*){3,})$/
const HTML_RAW = /^ {0,3}<(script|pre|style|textarea)(?:\s|>|$)/i
const HTML_COMMENT = /^ {0,3}<!--/
const HTML_BLOCK_TAG =
  /^ {0,3}<\/?(?:address|article|aside|base|basefont|blockquote|body|caption|center|col|colgroup|dd|details|dialog|dir|div|dl|dt|fieldset|figcaption|figure|footer|form|frame|frameset|h[1-6]|head|header|hr|html|iframe|legend|li|link|main|menu|menuitem|nav|noframes|ol|optgroup|option|p|param|search|section|summary|table|tbody|td|tfoot|th|thead|title|tr|track|ul)(?:\s|\/?>|$)/i
const HTML_LONE_TAG = /^ {0,3}(?:<[A-Za-z][A-Za-z0-9-]*(?:\s[^<>]*)?\/?>|<\/[A-Za-z][A-Za-z0-9-]*\s*>)[ \t]*$/
// First characters after which a line needs a closer look (and so its text).
const NEEDS_TEXT = new Uint8Array(128)
for (const character of '`~<#=-+*_0123456789') NEEDS_TEXT[character.charCodeAt(0)] = 1
// No blanks before '{': a regular expression starting with `[ \t]*` rescans every run of blanks.
const EXPLICIT_ID = /\{#([^}\s]+)\}[ \t]*$/

function indentOf(line: string): number {
  let columns = 0
  for (let index = 0; index < line.length; index++) {
    const character = line.charCodeAt(index)
    if (character === 32) columns++
    else if (character === 9) columns += 4 - (columns % 4)
    else break
  }
  return columns
}

function isBlank(code: number): boolean {
  return code === 32 || code === 9
}

/**
 * An ATX heading (`## Text ##`): its level and text without the optional closing '#'s. Read by
 * hand: a regular expression for it backtracks for minutes on a long run of blanks.
 */
export function atxHeading(line: string): { level: number; content: string } | null {
  let at = 0
  while (at < 3 && line.charCodeAt(at) === 32) at++
  let level = 0
  while (line.charCodeAt(at + level) === 35) level++
  let start = at + level
  if (level === 0 || level > 6 || (start < line.length && !isBlank(line.charCodeAt(start)))) return null
  let end = line.length
  while (end > start && isBlank(line.charCodeAt(end - 1))) end--
  let closing = end
  while (closing > start && line.charCodeAt(closing - 1) === 35) closing--
  if (closing < end && (closing === start || isBlank(line.charCodeAt(closing - 1)))) {
    end = closing
    while (end > start && isBlank(line.charCodeAt(end - 1))) end--
  }
  while (start < end && isBlank(line.charCodeAt(start))) start++
  return { level, content: line.slice(start, end) }
}

const HEADING_MARKUP = /[[`*_~\\<]/
// Inline HTML in a heading is not part of its text for markdown-it-anchor (it reads text and code only);
// a code span is matched first so `<div>` inside it stays. Attributes are bounded to keep this linear.
const INLINE_TAG_OR_CODE = /`[^`]*`|<\/?[A-Za-z][A-Za-z0-9-]*(?:\s[^<>]{0,256})?\/?>/g

/** The text the wiki-link rule shows for a link: its label, else 'Page › Heading', 'Page' or 'Heading'. */
function wikiLinkText(inner: string): string | undefined {
  const parts = parseWikiInner(inner)
  if (!parts) return undefined
  if (parts.label) return parts.label
  return parts.target && parts.heading ? `${parts.target} › ${parts.heading}` : parts.target || parts.heading
}

/** Heading text as VitePress renders it for the slug: inline code, emphasis and links reduced to their text. */
function headingText(raw: string): string {
  if (!HEADING_MARKUP.test(raw)) return raw.trim()
  return raw
    // No '[' (or '(') inside: a run of brackets must not make every match rescan the rest.
    .replace(/!?\[\[([^[\]]*)\]\]/g, (match, inner: string) => wikiLinkText(inner) ?? match)
    .replace(/!?\[([^[\]]*)\]\([^()]*\)/g, '$1')
    .replace(INLINE_TAG_OR_CODE, (match) => (match.startsWith('`') ? match : ''))
    .replace(/`+([^`]*)`+/g, '$1')
    .replace(/(\*\*|__|\*|~~)(.+?)\1/g, '$2')
    .replace(/\\([\\`*_{}[\]()#+\-.!|])/g, '$1')
    .trim()
}

function makeHeading(level: number, raw: string): ParsedHeading {
  const explicit = EXPLICIT_ID.exec(raw)
  const text = headingText(explicit ? raw.slice(0, explicit.index) : raw)
  return { level, text, id: explicit?.[1] }
}

type Block = { kind: 'fence'; marker: string; quoted: boolean } | { kind: 'html'; until: RegExp | null } | null

/**
 * Reads a page body block by block, the way markdown-it does in the cases that matter for links:
 * fenced and indented code, HTML blocks, headings and prose. Links are found in prose only.
 */
export function parseMarkdown(body: string, bodyOffset = 0, bodyLine = 1): ParsedMarkdown {
  const links: ParsedLink[] = []
  const headings: ParsedHeading[] = []
  let block: Block = null
  let paragraphStart = -1
  let paragraphLine = 0
  let paragraphEnd = 0
  let previousBlank = true
  let inList = false
  let inIndentedCode = false
  let lineNumber = bodyLine - 1

  const flushParagraph = () => {
    if (paragraphStart !== -1) scanInline(body.slice(paragraphStart, paragraphEnd), bodyOffset + paragraphStart, paragraphLine, links)
    paragraphStart = -1
  }

  for (let start = 0; start <= body.length; ) {
    const newline = body.indexOf('\n', start)
    const end = newline === -1 ? body.length : newline
    const lineStart = start
    const lineEnd = end > start && body.charCodeAt(end - 1) === 13 ? end - 1 : end
    start = end + 1
    lineNumber++

    // Indentation and first character without slicing: most lines need nothing more.
    let first = lineStart
    let indent = 0
    for (; first < lineEnd; first++) {
      const character = body.charCodeAt(first)
      if (character === 32) indent++
      else if (character === 9) indent += 4 - (indent % 4)
      else break
    }
    let firstCode = first < lineEnd ? body.charCodeAt(first) : -1
    let line = ''
    let quoted = false
    if (firstCode === 62 /* > */ && indent <= 3) {
      const raw = body.slice(lineStart, lineEnd)
      line = raw.slice(QUOTE_PREFIX.exec(raw)![0].length)
      quoted = true
      indent = indentOf(line)
      const trimmed = line.trimStart()
      firstCode = trimmed ? trimmed.charCodeAt(0) : -1
    }
    if (!quoted) line = NEEDS_TEXT[firstCode] === 1 || block?.kind === 'html' ? body.slice(lineStart, lineEnd) : ''
    const blank = firstCode === -1

    if (block?.kind === 'fence') {
      if (firstCode === block.marker.charCodeAt(0)) {
        const close = FENCE.exec(line)
        if (close && close[2]!.startsWith(block.marker) && close[3]!.trim() === '') block = null
      } else if (block.quoted && !quoted) block = null
      continue
    }
    if (block?.kind === 'html') {
      if (block.until ? block.until.test(line) : blank) block = null
      previousBlank = blank
      continue
    }
    if (blank) {
      flushParagraph()
      previousBlank = true
      continue
    }
    if (indent >= 4 && paragraphStart === -1 && (previousBlank || inIndentedCode) && !inList) {
      inIndentedCode = true
      previousBlank = false
      continue
    }
    inIndentedCode = false
    if (firstCode === 96 /* ` */ || firstCode === 126 /* ~ */) {
      const fence = (indent <= 3 || inList) && FENCE.exec(line)
      if (fence && !(fence[2]!.startsWith('`') && fence[3]!.includes('`'))) {
        flushParagraph()
        block = { kind: 'fence', marker: fence[2]!, quoted }
        previousBlank = false
        continue
      }
    }
    if (firstCode === 60 /* < */ && indent <= 3) {
      const htmlLine = line
      const raw = HTML_RAW.exec(htmlLine)
      const until = raw ? new RegExp(`</${raw[1]}>`, 'i') : HTML_COMMENT.test(htmlLine) ? /-->/ : undefined
      if (until || HTML_BLOCK_TAG.test(htmlLine) || (paragraphStart === -1 && HTML_LONE_TAG.test(htmlLine))) {
        flushParagraph()
        block = until?.test(htmlLine.slice(htmlLine.indexOf('<') + 4)) ? null : { kind: 'html', until: until ?? null }
        previousBlank = false
        continue
      }
    }
    // A rule where no paragraph is open (under one, `---` makes it a heading, handled below).
    if ((firstCode === 45 || firstCode === 42 || firstCode === 95) && paragraphStart === -1 && indent <= 3 && THEMATIC_BREAK.test(line)) {
      previousBlank = false
      continue
    }
    const maybeList = firstCode === 45 || firstCode === 43 || firstCode === 42 || (firstCode >= 48 && firstCode <= 57)
    if (maybeList && LIST_ITEM.test(line)) inList = true
    else if (previousBlank && indent === 0) inList = false
    previousBlank = false

    const heading = firstCode === 35 /* # */ && indent <= 3 ? atxHeading(line) : null
    if (heading) {
      flushParagraph()
      const content = heading.content
      headings.push(makeHeading(heading.level, content))
      const contentStart = quoted ? body.indexOf(content, lineStart) : lineStart + line.indexOf(content)
      scanInline(content, bodyOffset + contentStart, lineNumber, links)
      continue
    }
    if ((firstCode === 61 || firstCode === 45) && paragraphStart !== -1 && !inList && SETEXT_UNDERLINE.test(line)) {
      const content = body.slice(paragraphStart, paragraphEnd)
      headings.push(makeHeading(firstCode === 61 ? 1 : 2, content.replace(/\s*\n\s*/g, ' ')))
      flushParagraph()
      continue
    }
    if (paragraphStart === -1) {
      paragraphStart = lineStart
      paragraphLine = lineNumber
    }
    paragraphEnd = lineEnd
  }
  flushParagraph()
  return { links, headings }
}
