// Compaction: older turns become one summary written by the model; the recent turns stay verbatim.
import type { ModelPort } from '../types'
import { estimateTokens } from './tokens'
import { turnMessages, type HistoryEntry, type MemoryTurn } from './turns'

/** The share of the window the verbatim recent turns may take after a compaction. */
export const KEEP_SHARE = 0.35
/** The share of the window the transcript sent for summarising may take. */
const TRANSCRIPT_SHARE = 0.6

export interface Compaction {
  summary: string
  /** Index (in the turns before compaction) of the first turn kept verbatim. */
  keptFrom: number
  /** The requests of the turns kept verbatim, oldest first. */
  kept: string[]
  summarised: number
}

const SUMMARY_INSTRUCTIONS = [
  'You summarise a conversation between a blog author and MetaBlog, their writing assistant, so that MetaBlog can continue it without the full transcript.',
  "Keep: the author's goals and preferences, decisions taken, every page path mentioned, changes made or drafted (with their paths), open questions and what was asked last.",
  'Write at most 200 words, as plain sentences or a short list, in the language of the conversation. Do not add anything that was not said.',
].join('\n')

function turnTokens(turn: MemoryTurn): number {
  return turnMessages(turn).reduce((sum, entry) => sum + 4 + estimateTokens(entry.text), 0)
}

/** Where the verbatim tail starts: as many recent turns as fit in `keepTokens`, at least the last one. */
export function keptFrom(turns: readonly MemoryTurn[], keepTokens: number): number {
  let used = 0
  for (let index = turns.length - 1; index >= 0; index--) {
    used += turnTokens(turns[index]!)
    if (used > keepTokens && index < turns.length - 1) return index + 1
  }
  return 0
}

function transcript(previous: string | undefined, turns: readonly MemoryTurn[], maxTokens: number): string {
  const head = previous ? `(Summary of what came before)\n${previous}\n\n` : ''
  const text = turns
    .flatMap(turnMessages)
    .map((entry) => `${entry.role === 'user' ? 'Author' : 'MetaBlog'}: ${entry.text}`)
    .join('\n\n')
  // A transcript too long to summarise in one request keeps the earlier summary and its end, where the latest decisions are.
  const maxCharacters = Math.max(0, maxTokens * 3 - head.length)
  return head + (text.length > maxCharacters ? `…${text.slice(-maxCharacters)}` : text)
}

/** Summarises the turns before the verbatim tail; null when there is nothing older to summarise. */
export async function compactTurns(
  model: ModelPort,
  turns: readonly MemoryTurn[],
  previous: string | undefined,
  window: number,
  keepTokens = Math.floor(window * KEEP_SHARE),
): Promise<Compaction | null> {
  const from = keptFrom(turns, keepTokens)
  if (from === 0) return null
  const older = turns.slice(0, from)
  const summary = await model.complete({
    messages: [
      { role: 'system', content: SUMMARY_INSTRUCTIONS },
      { role: 'user', content: transcript(previous, older, Math.floor(window * TRANSCRIPT_SHARE)) },
    ],
    temperature: 0,
    maxTokens: 600,
  })
  return { summary: summary.trim(), keptFrom: from, kept: turns.slice(from).map((turn) => turn.request), summarised: older.length }
}

/** The system message that stands for the summarised turns. */
export function summaryEntry(summary: string): HistoryEntry {
  return { role: 'system', text: `Summary of the earlier part of this conversation (older turns were compacted):\n${summary}` }
}
