// The conversation the next agent request carries: every turn, or a summary of the older ones and the recent turns.
import type { ModelPort } from '../types'
import { compactTurns, summaryEntry, type Compaction } from './compaction'
import { turnMessages, type HistoryEntry, type MemoryTurn } from './turns'

export type { Compaction } from './compaction'
export type { HistoryEntry, MemoryTurn } from './turns'

export class ConversationMemory {
  private turns: MemoryTurn[] = []
  private summary: string | undefined

  /** The history for the next request, oldest first. */
  history(): HistoryEntry[] {
    return [...(this.summary ? [summaryEntry(this.summary)] : []), ...this.turns.flatMap(turnMessages)]
  }

  get turnCount(): number {
    return this.turns.length
  }

  remember(turn: MemoryTurn): void {
    this.turns.push(turn)
  }

  /** Replaces the memory (a conversation continued from its log). */
  load(turns: readonly MemoryTurn[], summary?: string): void {
    this.turns = [...turns]
    this.summary = summary
  }

  clear(): void {
    this.load([])
  }

  /** Summarises the older turns into one message; null when there is nothing older than the recent turns. */
  async compact(model: ModelPort, window: number, keepTokens?: number): Promise<Compaction | null> {
    const compaction = await compactTurns(model, this.turns, this.summary, window, keepTokens)
    if (!compaction) return null
    this.summary = compaction.summary
    this.turns = this.turns.slice(compaction.keptFrom)
    return compaction
  }
}
