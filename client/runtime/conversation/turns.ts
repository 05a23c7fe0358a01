// A turn of the conversation as memory keeps it, and the messages it becomes in the next request.

/** One entry of the history a request carries; `system` holds the summary of compacted turns. */
export interface HistoryEntry {
  role: 'user' | 'assistant' | 'system'
  text: string
}

export interface MemoryTurn {
  /** The author's message, with the pages they mentioned. */
  request: string
  mentions?: string[]
  /** The agent's answer. */
  answer?: string
  /** The tool calls of the turn, in their short form ("Read posts/a.md", "Edited posts/a.md (1 change) — failed"). */
  tools?: string[]
  /** What a recipe produced: its skill, its last words and the pages it wrote. */
  recipe?: { skill: string; summary: string; paths?: string[] }
}

/** How much of an answer memory keeps. */
export const ANSWER_LIMIT = 4000

export function turnMessages(turn: MemoryTurn): HistoryEntry[] {
  const mentioned = turn.mentions?.length ? `\n(Mentioned pages: ${turn.mentions.join(', ')})` : ''
  const entries: HistoryEntry[] = [{ role: 'user', text: turn.request + mentioned }]
  const parts: string[] = []
  if (turn.tools?.length) parts.push(`[Tools used: ${turn.tools.join('; ')}]`)
  if (turn.recipe) {
    const paths = turn.recipe.paths?.length ? ` Pages written: ${turn.recipe.paths.join(', ')}.` : ''
    parts.push(`[The ${turn.recipe.skill} recipe ran.${paths}]\n${turn.recipe.summary}`)
  }
  if (turn.answer) parts.push(turn.answer.slice(0, ANSWER_LIMIT))
  if (parts.length) entries.push({ role: 'assistant', text: parts.join('\n\n') })
  return entries
}
