// The diff an approval card shows: changed paragraphs only, each change as its old text then its new text.
import { diffArrays } from 'diff'
import { FRONT_MATTER } from '../skills/markdown'
import { plainInline } from '../skills/prose'
import { countWords, diffTokens } from './diff/diff-tokens'

/** A run of unchanged text, or one change: what was there, then what replaces it. */
export type Piece =
  | { kind: 'equal'; text: string }
  | { kind: 'change'; removed: string; added: string; restyled: boolean }
  | { kind: 'gap'; hidden: number }

export interface Hunk {
  pieces: Piece[]
  /** Code blocks and front matter read as source, never rendered. */
  source: boolean
}

export type DiffRow = { kind: 'hunk'; hunk: Hunk } | { kind: 'unchanged'; blocks: number }

export interface WordDiff {
  rows: DiffRow[]
  added: number
  removed: number
  /** Changes of formatting only (the same words, now a link or bold). */
  restyled: number
  /** The front matter is the same on both sides and left out. */
  frontMatterHidden: boolean
  /** True when unchanged text was folded away; `fold: false` shows it all. */
  folded: boolean
}

export interface WordDiffOptions {
  /** Hide unchanged paragraphs and fold long unchanged runs (default true). */
  fold?: boolean
  /** Characters of unchanged text kept on each side of a change inside a paragraph. */
  context?: number
  /** Give up on a token diff after this long and show the texts as removed and added. */
  timeoutMs?: number
}

const FENCE = /^ {0,3}(`{3,}|~{3,})/

/** Paragraphs and other blocks, split at blank lines; a fenced code block stays one block. */
export function splitBlocks(text: string): string[] {
  const blocks: string[] = []
  let current: string[] = []
  let fence: string | null = null
  for (const line of text.split('\n')) {
    if (fence !== null) {
      current.push(line)
      const trimmed = line.trim()
      if (trimmed.length >= fence.length && trimmed === fence[0]!.repeat(trimmed.length)) fence = null
    } else if (line.trim() === '') {
      if (current.length) blocks.push(current.join('\n'))
      current = []
    } else {
      fence = FENCE.exec(line)?.[1] ?? null
      current.push(line)
    }
  }
  if (current.length) blocks.push(current.join('\n'))
  return blocks
}

// Unchanged white space or a lone mark between two changes is read as part of one change.
const GLUE = /^(?:\s+|[^\p{L}\p{N}\s]{1,2}\s?)$/u

type Run = { kind: 'equal'; text: string } | { kind: 'change'; removed: string; added: string }

/**
 * An unchanged run no longer than the changes on both sides of it joins them (diff-match-patch's
 * semantic clean-up): a rewrite reads as the old sentence then the new one, not cut at every "a".
 */
function joinChanges(runs: Run[]): Run[] {
  const joined: Run[] = []
  const isSmall = (middle: string, left: Run & { kind: 'change' }, right: Run & { kind: 'change' }) =>
    GLUE.test(middle) || (middle.length <= Math.max(left.removed.length, left.added.length) && middle.length <= Math.max(right.removed.length, right.added.length))
  for (const run of runs) {
    joined.push(run)
    // The last three a change, a small unchanged run and a change: one change; then look further back.
    for (;;) {
      const [left, middle, right] = joined.slice(-3)
      if (left?.kind !== 'change' || middle?.kind !== 'equal' || right?.kind !== 'change' || !isSmall(middle.text, left, right)) break
      joined.splice(-3, 3, { kind: 'change', removed: left.removed + middle.text + right.removed, added: left.added + middle.text + right.added })
    }
    const [previous, last] = joined.slice(-2)
    if (previous?.kind === 'change' && last?.kind === 'change') joined.splice(-2, 2, { kind: 'change', removed: previous.removed + last.removed, added: previous.added + last.added })
  }
  return joined
}

/** Token-level changes, grouped so each changed run shows its old text once, then its new text once. */
export function tokenChanges(before: string, after: string, timeoutMs = 400): Piece[] {
  const changes = diffArrays(diffTokens(before), diffTokens(after), { timeout: timeoutMs }) ?? [
    { value: [before], removed: true, added: false, count: 1 },
    { value: [after], added: true, removed: false, count: 1 },
  ]
  const runs: Run[] = changes.map((part) => {
    const text = part.value.join('')
    if (!part.added && !part.removed) return { kind: 'equal', text }
    return { kind: 'change', removed: part.removed ? text : '', added: part.added ? text : '' }
  })
  return joinChanges(runs).map((run) => (run.kind === 'equal' ? run : { ...run, restyled: restyled(run.removed, run.added) }))
}

/** Only the markup changed (a mention became a link, a word bold): the reader sees the same words. */
function restyled(removed: string, added: string): boolean {
  // A long change is a rewrite; reading its markup would only cost time.
  if (removed.length > 2000 || added.length > 2000) return false
  const plain = (text: string) => plainInline(text).replace(/\s+/g, ' ').trim()
  return removed.trim() !== '' && removed !== added && plain(removed) === plain(added)
}

/** Long unchanged text keeps `context` characters next to each change, cut between words. */
function foldPiece(text: string, keepStart: number, keepEnd: number): Piece[] {
  if (text.length <= keepStart + keepEnd + 40) return [{ kind: 'equal', text }]
  const head = keepStart === 0 ? 0 : Math.max(text.lastIndexOf(' ', keepStart), 0)
  const tailFound = keepEnd === 0 ? -1 : text.indexOf(' ', text.length - keepEnd)
  const tail = tailFound === -1 ? text.length : tailFound
  const pieces: Piece[] = []
  if (head > 0) pieces.push({ kind: 'equal', text: text.slice(0, head) })
  pieces.push({ kind: 'gap', hidden: tail - head })
  if (tail < text.length) pieces.push({ kind: 'equal', text: text.slice(tail) })
  return pieces
}

function foldHunk(pieces: Piece[], context: number): Piece[] {
  return pieces.flatMap((piece, index) => {
    if (piece.kind !== 'equal') return [piece]
    return foldPiece(piece.text, index === 0 ? 0 : context, index === pieces.length - 1 ? 0 : context)
  })
}

/** The changes from `before` to `after`: changed blocks as hunks, unchanged ones counted, same front matter hidden. */
export function wordDiff(before: string, after: string, options: WordDiffOptions = {}): WordDiff {
  const { fold = true, context = 80, timeoutMs = 400 } = options
  const frontBefore = FRONT_MATTER.exec(before)?.[0] ?? ''
  const frontAfter = FRONT_MATTER.exec(after)?.[0] ?? ''
  const frontMatterHidden = frontBefore !== '' && frontBefore === frontAfter
  const rows: DiffRow[] = []
  let added = 0
  let removed = 0
  let restyledCount = 0
  let folded = false

  const addHunk = (old: string, fresh: string, source: boolean) => {
    const pieces = tokenChanges(old, fresh, timeoutMs)
    for (const piece of pieces) {
      if (piece.kind !== 'change') continue
      if (piece.restyled) restyledCount++
      else (added += countWords(piece.added)), (removed += countWords(piece.removed))
    }
    const shown = fold ? foldHunk(pieces, context) : pieces
    folded ||= shown.some((piece) => piece.kind === 'gap')
    rows.push({ kind: 'hunk', hunk: { pieces: shown, source } })
  }
  const addUnchanged = (blocks: string[]) => {
    if (!fold) return blocks.forEach((block) => rows.push({ kind: 'hunk', hunk: { pieces: [{ kind: 'equal', text: block }], source: FENCE.test(block) } }))
    folded = true
    const last = rows.at(-1)
    if (last?.kind === 'unchanged') last.blocks += blocks.length
    else rows.push({ kind: 'unchanged', blocks: blocks.length })
  }

  if (!frontMatterHidden && (frontBefore || frontAfter)) addHunk(frontBefore, frontAfter, true)
  const changes = diffArrays(splitBlocks(before.slice(frontBefore.length)), splitBlocks(after.slice(frontAfter.length)))
  for (let index = 0; index < changes.length; index++) {
    const part = changes[index]!
    if (!part.added && !part.removed) {
      addUnchanged(part.value)
      continue
    }
    // A removed run and the added run after it are one hunk: the paragraph as it was, then as it is.
    const next = changes[index + 1]
    const oldBlocks = part.removed ? part.value : []
    const newBlocks = part.added ? part.value : next?.added ? next.value : []
    if (part.removed && next?.added) index++
    const blocks = [...oldBlocks, ...newBlocks]
    addHunk(oldBlocks.join('\n\n'), newBlocks.join('\n\n'), blocks.some((block) => FENCE.test(block)))
  }
  return { rows, added, removed, restyled: restyledCount, frontMatterHidden, folded }
}
