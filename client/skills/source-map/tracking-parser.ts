// markdown-it that remembers, for every inline token, where in its block's text it came from.
import MarkdownIt from 'markdown-it'
import type { StateInline, Token } from 'markdown-it'
import { wikiLinkTextPlugin, type LinkTargets } from './wiki-link-text'

/** Where a token came from in its inline block's text: one position per character, or one span for all. */
export type Extent = { kind: 'chars'; positions: number[] } | { kind: 'span'; start: number; end: number }

export interface TrackingParser {
  parse(source: string): Token[]
  extentOf(token: Token): Extent | undefined
}

type InlineRule = Parameters<MarkdownIt['inline']['ruler']['at']>[1]
type BlockRule = Parameters<MarkdownIt['block']['ruler']['at']>[1]

// VitePress's containers (`::: tip`, `:::`): their lines are structure, and their titles are left out of a selection too.
const CONTAINER_LINE = /^:{3,}\s*(?:(?:tip|info|warning|danger|details|raw|v-pre|code-group)(?:\s.*)?)?$/

// markdown-it-attrs (in VitePress): `{#id .class key=value}` ending a heading or paragraph, or right after an inline element.
const ATTRIBUTE = `(?:[#.][^\\s{}]+|[^\\s{}=]+(?:=(?:"[^"]*"|'[^']*'|[^\\s{}]+))?)`
const TRAILING_ATTRIBUTES = new RegExp(`[ \\t]*\\{ *${ATTRIBUTE}(?: +${ATTRIBUTE})* *\\}$`)
const LEADING_ATTRIBUTES = new RegExp(`^\\{ *${ATTRIBUTE}(?: +${ATTRIBUTE})* *\\}`)
const ATTRIBUTE_HOLDERS = new Set(['strong_close', 'em_close', 's_close', 'link_close', 'code_inline', 'image'])

const containerLine: BlockRule = (state, startLine, _endLine, silent) => {
  const line = state.src.slice(state.bMarks[startLine]! + state.tShift[startLine]!, state.eMarks[startLine]).trimEnd()
  if (state.sCount[startLine]! - state.blkIndent >= 4 || !CONTAINER_LINE.test(line)) return false
  if (!silent) state.push('metablog_container_line', '', 0).map = [startLine, startLine + 1]
  state.line = startLine + 1
  return true
}

type Tracked = StateInline & { positions: number[] }

/** Characters the main loop appended to `pending` on its own (no rule matched) sit just before `pos`. */
function catchUp(state: Tracked): void {
  for (let missing = state.pending.length - state.positions.length; missing > 0; missing--) state.positions.push(state.pos - missing)
}

/**
 * A parser that renders the text the site renders (VitePress uses markdown-it with `html` and
 * `linkify`; linkify and the text-joining passes are off here because they rebuild tokens and the
 * text they produce is the text written).
 */
export function createTrackingParser(targets: LinkTargets = {}): TrackingParser {
  const md = new MarkdownIt({ html: true, linkify: false })
  md.core.ruler.disable(['text_join', 'linkify'], true)
  md.inline.ruler2.disable(['fragments_join'], true)
  md.use(wikiLinkTextPlugin, targets)
  md.block.ruler.before('fence', 'metablog_container_line', containerLine, { alt: ['paragraph', 'reference', 'blockquote', 'list'] })
  const extents = new WeakMap<Token, Extent>()

  /** Cuts `length` characters off a text token's start or end, with their positions. */
  function cut(token: Token, from: 'start' | 'end', length: number): void {
    const extent = extents.get(token)
    if (length <= 0 || extent?.kind !== 'chars' || extent.positions.length !== token.content.length) return
    token.content = from === 'start' ? token.content.slice(length) : token.content.slice(0, -length)
    extent.positions = from === 'start' ? extent.positions.slice(length) : extent.positions.slice(0, -length)
  }

  md.core.ruler.after('inline', 'metablog_attributes', (state) => {
    state.tokens.forEach((block, index) => {
      const children = block.type === 'inline' ? block.children : null
      if (!children) return
      let previous = ''
      for (const child of children) {
        // A strong or em run leaves an empty text token beside its close token.
        if (child.type === 'text' && child.content === '') continue
        const leading = child.type === 'text' && ATTRIBUTE_HOLDERS.has(previous) ? LEADING_ATTRIBUTES.exec(child.content) : null
        if (leading) cut(child, 'start', leading[0].length)
        previous = child.type
      }
      const last = children.at(-1)
      const holder = state.tokens[index - 1]?.type
      const trailing = last?.type === 'text' && (holder === 'heading_open' || holder === 'paragraph_open') ? TRAILING_ATTRIBUTES.exec(last.content) : null
      if (last && trailing) cut(last, 'end', trailing[0].length)
    })
  })

  const Base = md.inline.State
  class TrackingState extends Base {
    positions: number[] = []
    override pushPending(): Token {
      catchUp(this)
      const positions = this.positions.slice(0, this.pending.length)
      this.positions = []
      const token = super.pushPending()
      extents.set(token, { kind: 'chars', positions })
      return token
    }
  }
  md.inline.State = TrackingState

  // Each rule is wrapped: what it adds to `pending` or pushes gets the source it consumed.
  const rules = (md.inline.ruler as unknown as { __rules__: { name: string; fn: InlineRule }[] }).__rules__
  for (const { name, fn: rule } of [...rules]) {
    md.inline.ruler.at(name, (plain, silent) => {
      if (silent) return rule(plain, silent)
      const state = plain as Tracked
      catchUp(state)
      const start = state.pos
      const tokenCount = state.tokens.length
      const pendingLength = state.pending.length
      if (!rule(state, silent)) return false
      recordPending(state, start, pendingLength)
      recordTokens(state, start, tokenCount)
      return true
    })
  }

  function recordPending(state: Tracked, start: number, pendingLength: number): void {
    if (state.pending.length <= pendingLength) {
      state.positions.length = Math.min(state.positions.length, state.pending.length)
      return
    }
    const added = state.pending.slice(pendingLength)
    const literal = state.src.startsWith(added, start)
    for (let index = 0; index < added.length; index++) state.positions.push(literal ? start + index : start)
  }

  // Delimiters (`*`, `~~`) are pushed as text that is the source itself; anything else stands for the whole match.
  function recordTokens(state: Tracked, start: number, tokenCount: number): void {
    let cursor = start
    for (const token of state.tokens.slice(tokenCount)) {
      if (extents.has(token)) continue
      if (token.type === 'text' && token.content && cursor < state.pos && state.src.startsWith(token.content, cursor)) {
        extents.set(token, { kind: 'chars', positions: Array.from({ length: token.content.length }, (_unused, index) => cursor + index) })
        cursor += token.content.length
      } else extents.set(token, { kind: 'span', start, end: state.pos })
    }
  }

  return {
    parse: (source) => md.parse(source, {}),
    extentOf: (token) => extents.get(token),
  }
}
