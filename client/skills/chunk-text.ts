// Splits a long page into parts a model can read at once, cutting where the text already breaks.
import { fenceOpening, isClosingFence, isHeading } from './prose'

interface Unit {
  text: string
  heading: boolean
}

/** Blocks of the text, each with the blank lines after it; a code fence is one block, a heading starts one. */
function units(text: string): Unit[] {
  const found: Unit[] = []
  let current = ''
  let heading = false
  let fence: string | null = null
  let blank = false
  const flush = () => {
    if (current) found.push({ text: current, heading })
    current = ''
    heading = false
    blank = false
  }
  for (const line of text.match(/[^\n]*\n|[^\n]+$/g) ?? []) {
    const content = line.replace(/\r?\n$/, '')
    if (fence !== null) {
      current += line
      if (isClosingFence(content, fence)) fence = null
      continue
    }
    const isBlank = content.trim() === ''
    if (!isBlank && (blank || isHeading(content))) flush()
    if (!current) heading = isHeading(content)
    current += line
    blank = isBlank
    fence = fenceOpening(content)
  }
  flush()
  return found
}

/** Pieces of one oversized block, each within the budget: by line, then by sentence, then cut. */
function pieces(text: string, budget: number): string[] {
  if (text.length <= budget) return [text]
  for (const pattern of [/[^\n]*\n|[^\n]+$/g, /[^.!?。！？]*[.!?。！？]+["'”’)]*\s*|[^.!?。！？]+$/gu]) {
    const parts = text.match(pattern) ?? []
    if (parts.length > 1) return pack(parts.flatMap((part) => pieces(part, budget)), budget)
  }
  let cut = budget
  // Never split a surrogate pair (an emoji or a rare CJK character).
  if (/[\uD800-\uDBFF]/.test(text[cut - 1]!)) cut--
  return [text.slice(0, cut), ...pieces(text.slice(cut), budget)]
}

/** Greedily joins consecutive pieces while they fit. */
function pack(parts: string[], budget: number): string[] {
  const chunks: string[] = []
  let current = ''
  for (const part of parts) {
    if (current && current.length + part.length > budget) {
      chunks.push(current)
      current = ''
    }
    current += part
  }
  if (current) chunks.push(current)
  return chunks
}

/**
 * Parts of at most `budget` characters whose concatenation is exactly `text`. Parts end at
 * headings or paragraph breaks where possible (a heading starts a new part once the current one is
 * half full), and never inside a code fence unless the fence alone is over the budget.
 */
export function chunkText(text: string, budget: number): string[] {
  if (budget < 2) throw new RangeError('The chunk budget must be at least 2 characters.')
  if (text.length <= budget) return text ? [text] : []
  const chunks: string[] = []
  let current = ''
  for (const unit of units(text)) {
    const full = current.length + unit.text.length > budget
    if (current && (full || (unit.heading && current.length >= budget / 2))) {
      chunks.push(current)
      current = ''
    }
    if (unit.text.length <= budget) {
      current += unit.text
      continue
    }
    const split = pieces(unit.text, budget)
    chunks.push(...split.slice(0, -1))
    current = split.at(-1)!
  }
  if (current) chunks.push(current)
  return chunks
}
