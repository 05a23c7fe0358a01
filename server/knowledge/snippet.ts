const SNIPPET_LENGTH = 160

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
}

/** A short plain-text excerpt around the first place one of the terms appears; the start of the text if none does. */
export function makeSnippet(text: string, terms: string[]): string {
  // Longer terms first: they say more about why the page matched.
  const wanted = [...new Set(terms.filter(Boolean))].sort((a, b) => b.length - a.length)
  let at = -1
  for (const term of wanted) {
    const found = new RegExp(escapeRegExp(term), 'iu').exec(text)
    if (found) {
      at = found.index
      break
    }
  }
  if (at === -1 || text.length <= SNIPPET_LENGTH) return cut(text, 0)
  let start = Math.max(0, at - Math.floor(SNIPPET_LENGTH / 3))
  if (start > 0) {
    const space = text.lastIndexOf(' ', start)
    if (space !== -1 && start - space < 20) start = space + 1
  }
  return cut(text, start)
}

/** Whitespace is collapsed only in the part shown, not in the whole page. */
function cut(text: string, start: number): string {
  const window = text.slice(start, start + SNIPPET_LENGTH * 2).replace(/\s+/g, ' ').trim()
  const end = start + SNIPPET_LENGTH * 2 < text.length
  let slice = window.slice(0, SNIPPET_LENGTH)
  const truncated = end || window.length > SNIPPET_LENGTH
  if (truncated) {
    const space = slice.lastIndexOf(' ')
    if (space > SNIPPET_LENGTH * 0.6) slice = slice.slice(0, space)
  }
  return `${start > 0 ? '…' : ''}${slice}${truncated ? '…' : ''}`
}
