const SNIPPET_LENGTH = 160

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
}

// `[[target]]`, `[[target|label]]`, `[[target#heading]]`, `![[embed]]`: what the reader sees is the label.
const WIKI_LINK = /!?\[\[([^[\]|\n]*?)(?:\|([^[\]\n]*))?\]\]/g

/** Wiki-links as the text a reader sees: the label, else the target (`page › heading`, or the heading alone). */
export function wikiLinksAsText(text: string): string {
  if (!text.includes('[[')) return text
  return text.replace(WIKI_LINK, (_link, target: string, label: string | undefined) => {
    if (label?.trim()) return label.trim()
    const [page = '', heading] = target.split('#')
    return heading === undefined ? page.trim() : page.trim() ? `${page.trim()} › ${heading.trim()}` : heading.trim()
  })
}

/** A short plain-text excerpt around the first place one of the terms appears; the start of the text if none does. */
export function makeSnippet(source: string, terms: string[]): string {
  const text = wikiLinksAsText(source)
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
