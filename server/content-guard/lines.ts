// A page as lines, split the way markdown-it splits them (\r\n, \r and \n all end a line), so line
// numbers here and in markdown-it's token maps always agree; the separators are kept to rebuild it byte for byte.
import { diffArrays } from 'diff'

export interface PageLines {
  lines: string[]
  /** The separator after each line ('' after the last). */
  separators: string[]
}

const LINE_BREAK = /\r\n|\r|\n/g

export function splitLines(text: string): PageLines {
  const lines: string[] = []
  const separators: string[] = []
  let start = 0
  for (const match of text.matchAll(LINE_BREAK)) {
    lines.push(text.slice(start, match.index))
    separators.push(match[0])
    start = match.index + match[0].length
  }
  lines.push(text.slice(start))
  separators.push('')
  return { lines, separators }
}

export function joinLines(page: PageLines): string {
  let text = ''
  for (let index = 0; index < page.lines.length; index++) text += page.lines[index]! + page.separators[index]!
  return text
}

/** Which lines of the new page are new or changed, and where each unchanged one was in the old page. */
export interface LineChanges {
  changed: Set<number>
  /** New line number → old line number, for unchanged lines. */
  previous: Map<number, number>
}

// A large rewrite is not worth a slow diff: past this many inserted or removed lines, everything
// between the common head and tail counts as changed. A limit, not a timeout, so the verdict is the same on any machine.
const DIFF_LIMIT = { maxEditLength: 1000 }

export function lineChanges(before: string[] | null, after: string[]): LineChanges {
  const changed = new Set<number>()
  const previous = new Map<number, number>()
  if (before === null) {
    for (let index = 0; index < after.length; index++) changed.add(index)
    return { changed, previous }
  }
  const parts = diffArrays(before, after, DIFF_LIMIT)
  if (parts === undefined) return prefixSuffixChanges(before, after)
  let oldLine = 0
  let newLine = 0
  for (const part of parts) {
    const count = part.value.length
    if (part.removed) oldLine += count
    else if (part.added) for (let step = 0; step < count; step++) changed.add(newLine++)
    else for (let step = 0; step < count; step++) previous.set(newLine++, oldLine++)
  }
  return { changed, previous }
}

/** The cheap fallback: the common first and last lines are unchanged, everything between is new. */
function prefixSuffixChanges(before: string[], after: string[]): LineChanges {
  const changed = new Set<number>()
  const previous = new Map<number, number>()
  let head = 0
  while (head < before.length && head < after.length && before[head] === after[head]) previous.set(head, head++)
  let tail = 0
  while (tail < before.length - head && tail < after.length - head && before[before.length - 1 - tail] === after[after.length - 1 - tail]) {
    previous.set(after.length - 1 - tail, before.length - 1 - tail)
    tail++
  }
  for (let index = head; index < after.length - tail; index++) changed.add(index)
  return { changed, previous }
}
