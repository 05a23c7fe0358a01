// A hunk rendered as Markdown, the reader's view: changes marked inside the formatted text.
import { renderMarkdown } from '../render-markdown'
import type { Piece } from '../word-diff'

// Private-use characters mark where changes start and end; they survive markdown-it and become tags after it.
const MARKS = {
  '\uE000': '<del>',
  '\uE001': '</del>',
  '\uE002': '<ins>',
  '\uE003': '</ins>',
  '\uE004': '<ins class="restyled" title="Same words, new formatting">',
  '\uE005': '</ins>',
  '\uE006': '<span class="wiki-link">',
  '\uE007': '</span>',
  '\uE008': '<span class="gap">…</span>',
} as const
type Mark = keyof typeof MARKS
const CLOSING: Partial<Record<Mark, Mark>> = { '\uE000': '\uE001', '\uE002': '\uE003', '\uE004': '\uE005', '\uE006': '\uE007' }
const ANY_MARK = /[\uE000-\uE008]/g
const BLOCK_MARKER = /^[ \t]*(?:(?:[-*+]|\d+[.)]|>|#{1,6})[ \t]+)*/

/** Wraps text in a mark line by line, after each line's list, quote or heading marker, so no block is cut. */
function wrap(text: string, open: Mark, close: Mark, atLineStart: boolean): string {
  return text
    .split('\n')
    .map((line, index) => {
      const marker = index === 0 && !atLineStart ? '' : (BLOCK_MARKER.exec(line)?.[0] ?? '')
      const rest = line.slice(marker.length)
      return rest.trim() === '' ? line : `${marker}${open}${rest}${close}`
    })
    .join('\n')
}

/** `[[target|label]]` shows its label (or target), marked as a link; the chat renderer knows no wiki-links. */
function wikiLinksAsText(markdown: string): string {
  return markdown.replace(/!?\[\[([^[\]\n|#]*)(?:#([^[\]\n|]*))?(?:\\?\|([^[\]\n]*))?\]\]/g, (_link, target: string, heading?: string, label?: string) => {
    const text = label?.trim() || [target.trim(), heading?.trim()].filter(Boolean).join(' › ')
    return `\uE006${text}\uE007`
  })
}

/** Marks are closed before every tag and re-opened after it, so a change that spans formatting nests properly. */
function marksToTags(html: string): string {
  const open: Mark[] = []
  let out = ''
  for (const part of html.split(/(<[^>]+>)/)) {
    if (part.startsWith('<')) {
      out += [...open].reverse().map((mark) => MARKS[CLOSING[mark]!]).join('') + part + open.map((mark) => MARKS[mark]).join('')
      continue
    }
    out += part.replace(ANY_MARK, (char) => {
      const mark = char as Mark
      if (CLOSING[mark]) open.push(mark)
      else if (mark !== '\uE008') {
        const at = open.findLastIndex((opened) => CLOSING[opened] === mark)
        if (at === -1) return ''
        open.splice(at, 1)
      }
      return MARKS[mark]
    })
  }
  return out
}

/** The HTML of a hunk's pieces rendered as Markdown (through the chat's safe renderer). */
export function renderHunk(pieces: Piece[]): string {
  let markdown = ''
  // The marks are this renderer's own: the same characters in the page's text are dropped.
  const own = (text: string) => text.replace(ANY_MARK, '')
  for (const original of pieces) {
    const piece = original.kind === 'equal' ? { ...original, text: own(original.text) } : original.kind === 'change' ? { ...original, removed: own(original.removed), added: own(original.added) } : original
    const atLineStart = markdown === '' || markdown.endsWith('\n')
    if (piece.kind === 'equal') markdown += piece.text
    else if (piece.kind === 'gap') markdown += '\uE008'
    else if (piece.restyled) markdown += wrap(piece.added, '\uE004', '\uE005', atLineStart)
    else {
      // Paragraphs replaced by paragraphs: the old ones whole, then the new ones, never one mixed paragraph.
      const between = piece.removed.includes('\n\n') || piece.added.includes('\n\n') ? '\n\n' : ''
      markdown += wrap(piece.removed, '\uE000', '\uE001', atLineStart) + between + wrap(piece.added, '\uE002', '\uE003', atLineStart || between !== '')
    }
  }
  return marksToTags(renderMarkdown(wikiLinksAsText(markdown)))
}
