// A word-level diff for approval cards, with long unchanged runs folded so the change stays in view.
import { diffWords } from 'diff'

export type DiffSegment =
  | { kind: 'equal' | 'added' | 'removed'; text: string }
  | { kind: 'gap'; hidden: number }

export interface WordDiff {
  segments: DiffSegment[]
  added: number
  removed: number
  /** True when some text was folded away; `fold: false` shows it all. */
  folded: boolean
}

export interface WordDiffOptions {
  /** Fold unchanged and long changed runs (default true). */
  fold?: boolean
  /** Characters of unchanged text kept on each side of a change. */
  context?: number
  /** Changed runs longer than this keep their start and end only. */
  maxChanged?: number
  /** Give up on a word diff after this long and show the texts as removed and added. */
  timeoutMs?: number
}

const words = (text: string) => text.split(/\s+/).filter(Boolean).length

function foldText(kind: 'equal' | 'added' | 'removed', text: string, head: number, tail: number): DiffSegment[] {
  if (text.length <= head + tail + 40) return [{ kind, text }]
  // Cut on whitespace so no word is split in half.
  const headEnd = Math.max(text.lastIndexOf(' ', head), text.lastIndexOf('\n', head), 0) || head
  const tailStart = text.indexOf(' ', text.length - tail) === -1 ? text.length - tail : text.indexOf(' ', text.length - tail)
  const parts: DiffSegment[] = []
  if (headEnd > 0) parts.push({ kind, text: text.slice(0, headEnd) })
  parts.push({ kind: 'gap', hidden: text.length - headEnd - (text.length - tailStart) })
  if (tailStart < text.length) parts.push({ kind, text: text.slice(tailStart) })
  return parts
}

/** The changes from `before` to `after`, word by word. */
export function wordDiff(before: string, after: string, options: WordDiffOptions = {}): WordDiff {
  const { fold = true, context = 80, maxChanged = 600, timeoutMs = 400 } = options
  const changes = diffWords(before, after, { timeout: timeoutMs }) ?? [
    { value: before, removed: true, added: false, count: 1 },
    { value: after, added: true, removed: false, count: 1 },
  ]
  const raw = changes
    .filter((change) => change.value !== '')
    .map((change) => ({ kind: change.added ? 'added' : change.removed ? 'removed' : 'equal', text: change.value }) as const)

  let added = 0
  let removed = 0
  const segments: DiffSegment[] = []
  raw.forEach((segment, index) => {
    if (segment.kind === 'added') added += words(segment.text)
    if (segment.kind === 'removed') removed += words(segment.text)
    if (!fold) return segments.push(segment)
    if (segment.kind !== 'equal') return segments.push(...foldText(segment.kind, segment.text, maxChanged / 2, maxChanged / 4))
    const first = index === 0
    const last = index === raw.length - 1
    segments.push(...foldText('equal', segment.text, first ? 0 : context, last ? 0 : context))
  })
  return { segments, added, removed, folded: segments.some((segment) => segment.kind === 'gap') }
}
