import type { SessionEntry, SessionSummary } from '../../plugin/protocol.js'
import { checkSessionEntry } from './session-entry.js'

/** A line longer than this is not parsed at all: no entry written through the API comes near it. */
export const MAX_LINE_LENGTH = 4 * 1024 * 1024
const TITLE_LENGTH = 120

export interface SkippedLine {
  /** 1-based line number in the file. */
  line: number
  reason: string
}

export interface ParsedLog {
  entries: SessionEntry[]
  skipped: SkippedLine[]
}

/**
 * Reads a JSONL session log. A line that is not a valid entry (torn by a crash, garbage, too long)
 * is skipped and reported, never fatal; blank lines are ignored.
 */
export function parseSessionLog(text: string, maxLineLength = MAX_LINE_LENGTH): ParsedLog {
  const entries: SessionEntry[] = []
  const skipped: SkippedLine[] = []
  let start = 0
  for (let line = 1; start < text.length; line++) {
    let end = text.indexOf('\n', start)
    if (end === -1) end = text.length
    const length = end - start
    if (length > maxLineLength) {
      skipped.push({ line, reason: `longer than ${maxLineLength} characters` })
    } else if (text.slice(start, end).trim() !== '') {
      const reason = entryOrReason(text.slice(start, end), entries)
      if (reason) skipped.push({ line, reason })
    }
    start = end + 1
  }
  return { entries, skipped }
}

function entryOrReason(line: string, entries: SessionEntry[]): string | null {
  let value: unknown
  try {
    value = JSON.parse(line)
  } catch {
    return 'not JSON (a torn or corrupt line)'
  }
  try {
    entries.push(checkSessionEntry(value, 'line'))
    return null
  } catch (error) {
    return (error as Error).message
  }
}

/** What the history list shows of a log; `fallbackTime` stands in for times when it has no entries. */
export function summarizeSession(id: string, entries: SessionEntry[], fallbackTime: string): SessionSummary {
  let title = ''
  let cost = 0
  for (const entry of entries) {
    if (!title && entry.type === 'user') title = entry.text.replace(/\s+/g, ' ').trim().slice(0, TITLE_LENGTH)
    if (entry.type === 'usage' && entry.cost !== undefined) cost += entry.cost
  }
  return {
    id,
    title,
    createdAt: entries[0]?.at ?? fallbackTime,
    updatedAt: entries.at(-1)?.at ?? fallbackTime,
    entries: entries.length,
    cost,
  }
}
