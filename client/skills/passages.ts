// Picks the paragraphs of a page that answer a query, for research answers and quotes.
import { WORD_CHARACTER, isCjkTerm, plainInline, proseBlocks, termsOf } from './prose'

export interface Passage {
  /** The paragraph's Markdown, shortened around the first match when long. */
  markdown: string
  score: number
  /** Its position among the page's paragraphs. */
  index: number
}

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')

/** The distinct terms of a query; Chinese and Japanese as two-character pieces, matched as substrings. */
export function queryTerms(query: string): string[] {
  return [...new Set(termsOf(query))]
}

/** How often a term occurs: Latin terms at the start of a word ("cache" finds "caches"), CJK anywhere. */
function occurrences(text: string, term: string): number {
  if (isCjkTerm(term)) return text.split(term).length - 1
  return text.match(new RegExp(`(?<!${WORD_CHARACTER})${escape(term)}`, 'gu'))?.length ?? 0
}

/**
 * A paragraph scores each term it contains (longer terms weigh more, repeats a little more), times
 * the share of the query's terms it covers, so a paragraph that has them all ranks first.
 */
export function scorePassage(markdown: string, terms: readonly string[]): number {
  if (terms.length === 0) return 0
  const text = plainInline(markdown).normalize('NFKC').toLowerCase()
  let total = 0
  let matched = 0
  for (const term of terms) {
    const count = occurrences(text, term)
    if (count === 0) continue
    matched++
    total += Math.min(Array.from(term).length, 8) * (1 + Math.log(count))
  }
  return total * (matched / terms.length)
}

/** At most `max` characters of a long paragraph, from a little before its first match. */
function excerpt(markdown: string, terms: readonly string[], max: number): string {
  if (markdown.length <= max) return markdown
  const lower = markdown.toLowerCase()
  const first = Math.min(...terms.map((term) => lower.indexOf(term)).filter((index) => index >= 0), markdown.length)
  let start = first < max / 2 ? 0 : first - Math.floor(max / 4)
  let end = Math.min(markdown.length, start + max)
  if (start > 0) start = markdown.lastIndexOf(' ', start) + 1 || start
  if (end < markdown.length) end = markdown.lastIndexOf(' ', end) > start ? markdown.lastIndexOf(' ', end) : end
  return `${start > 0 ? '…' : ''}${markdown.slice(start, end).trim()}${end < markdown.length ? '…' : ''}`
}

/** The `limit` paragraphs of a page that best match the query, best first; none when nothing matches. */
export function bestPassages(markdown: string, query: string, limit = 2, maxLength = 700): Passage[] {
  const terms = queryTerms(query)
  return proseBlocks(markdown)
    .map((block, index) => ({ markdown: block.markdown, score: scorePassage(block.markdown, terms), index }))
    .filter((passage) => passage.score > 0)
    .sort((left, right) => right.score - left.score || left.index - right.index)
    .slice(0, limit)
    .map((passage) => ({ ...passage, markdown: excerpt(passage.markdown, terms, maxLength) }))
}
