import type { MarkdownRenderer } from 'vitepress'
import { fragmentId } from '../../server/knowledge/heading-ids.js'
import type { ParsedHeading } from '../../server/knowledge/parse-blocks.js'
import { encodeFragment } from './attachment-embed.js'

type CoreRule = Parameters<MarkdownRenderer['core']['ruler']['push']>[1]
type StateCore = Parameters<CoreRule>[0]
type Token = StateCore['tokens'][number]

/** What the inline rule leaves on a `[[#Heading]]` anchor, for this rule to point at the rendered id. */
export interface SamePageFragment {
  metablogFragment: string
}

// ` ^block-id` ending a paragraph, Obsidian's block reference target.
const TRAILING_BLOCK_ID = /(?:^|[ \t])\^([A-Za-z0-9-]+)$/

/** Text of a heading as markdown-it-anchor reads it (its default getTokensText, which VitePress keeps). */
function tokensText(children: Token[] | null): string {
  return (children ?? []).filter((token) => token.type === 'text' || token.type === 'code_inline').map((token) => token.content).join('')
}

/** The opening token of the block that ends just before `index`, if any. */
function previousBlockOpen(tokens: Token[], index: number): Token | null {
  const close = tokens[index - 1]
  if (!close || close.nesting !== -1) return null
  for (let at = index - 2; at >= 0; at--) if (tokens[at]!.level === close.level && tokens[at]!.nesting === 1) return tokens[at]!
  return null
}

/** Gives a paragraph ending in `^id` that id (on its list item when the list is tight), the marker hidden. */
function markBlock(tokens: Token[], index: number): void {
  const paragraph = tokens[index]!
  const inline = tokens[index + 1]
  const last = inline?.children?.at(-1)
  if (!inline || last?.type !== 'text') return
  const found = TRAILING_BLOCK_ID.exec(last.content)
  if (!found) return
  const id = `^${found[1]}`
  last.content = last.content.slice(0, found.index).trimEnd()
  let holder: Token | null = paragraph
  if (inline.children!.every((child) => child.type === 'text' && child.content === '')) {
    // A `^id` line alone names the block before it (a table, a quote, a list), as in Obsidian.
    holder = previousBlockOpen(tokens, index) ?? paragraph
    if (holder !== paragraph) paragraph.hidden = tokens[index + 2]!.hidden = true
  } else if (paragraph.hidden) {
    holder = tokens.slice(0, index).findLast((token) => token.type === 'list_item_open' && token.level === paragraph.level - 1) ?? paragraph
  }
  if (!holder.attrGet('id')) holder.attrSet('id', id)
}

/**
 * markdown-it plugin, after VitePress's anchors: block ids for `^id` paragraphs, and `[[#Heading]]`
 * anchors pointed at the id the heading really got on this page (slug and '-1' de-duplication).
 */
export function blockAnchorsPlugin(md: MarkdownRenderer): void {
  // VitePress renders `<table tabindex="0">` without the token's attributes: a `^id` under a table would be lost.
  const tableOpen = md.renderer.rules.table_open
  if (tableOpen) {
    md.renderer.rules.table_open = (tokens, index, options, env, self) => {
      const html = tableOpen(tokens, index, options, env, self)
      const id = tokens[index]!.attrGet('id')
      return id && !html.includes(' id=') ? html.replace('<table', `<table id="${md.utils.escapeHtml(id)}"`) : html
    }
  }
  md.core.ruler.push('metablog_block_anchors', (state) => {
    const tokens = state.tokens
    const headings: ParsedHeading[] = []
    const samePage: Token[] = []
    for (let index = 0; index < tokens.length; index++) {
      const token = tokens[index]!
      if (token.type === 'paragraph_open') markBlock(tokens, index)
      else if (token.type === 'heading_open') headings.push({ level: Number(token.tag.slice(1)), text: tokensText(tokens[index + 1]?.children ?? null), id: token.attrGet('id') ?? undefined })
      if (token.type !== 'inline') continue
      for (const child of token.children ?? []) if ((child.meta as Partial<SamePageFragment> | null)?.metablogFragment) samePage.push(child)
    }
    for (const link of samePage) link.attrSet('href', `#${encodeFragment(fragmentId(headings, (link.meta as SamePageFragment).metablogFragment))}`)
    return true
  })
}
