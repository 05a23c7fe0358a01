// The text of a selection as the source map reads the page: the theme's own labels left out.

// A code block's language label, heading anchors, line numbers, container titles and buttons are the
// theme's, not the author's: a selection across them must still be found in the Markdown.
const THEME_PARTS = '.lang, .header-anchor, .line-numbers-wrapper, .custom-block-title, details.custom-block > summary, .vp-code-group .tabs, button'
const BLOCK = new Set(['P', 'LI', 'DIV', 'PRE', 'H1', 'H2', 'H3', 'H4', 'H5', 'H6', 'TR', 'TD', 'TH', 'BLOCKQUOTE', 'UL', 'OL', 'TABLE', 'DETAILS', 'BR', 'HR'])

function collect(node: Node, parts: string[]): void {
  if (node.nodeType === Node.TEXT_NODE) return void parts.push(node.nodeValue ?? '')
  if (node.nodeType !== Node.ELEMENT_NODE && node.nodeType !== Node.DOCUMENT_FRAGMENT_NODE) return
  const element = node.nodeType === Node.ELEMENT_NODE ? (node as Element) : null
  if (element?.matches(THEME_PARTS)) return
  const block = element !== null && BLOCK.has(element.tagName)
  if (block) parts.push('\n')
  for (const child of node.childNodes) collect(child, parts)
  if (block) parts.push('\n')
}

/** The selected text; when the selection holds parts of the theme, without them. */
export function selectionText(selection: Selection): string {
  if (selection.rangeCount === 0) return ''
  const fragment = selection.getRangeAt(0).cloneContents()
  if (!fragment.querySelector(THEME_PARTS)) return selection.toString()
  const parts: string[] = []
  collect(fragment, parts)
  return parts.join('')
}
