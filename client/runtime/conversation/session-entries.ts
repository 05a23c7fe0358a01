// Between the session log and the conversation: the entries a finished turn adds, the memory and
// messages a logged conversation becomes again, and its Markdown export.
import type { SessionEntry, SessionEntryInput, SessionSummary } from '../../api/sessions'
import type { CostTotals } from '../cost-tracker'
import type { ChatMessage } from '../types'
import type { MemoryTurn } from './turns'

/** The entries one finished turn adds after its `user` entry: tool calls and results, the answer or recipe, usage. */
export function entriesForTurn(turn: MemoryTurn, taskMessages: readonly ChatMessage[], usage: CostTotals | undefined, model: string | undefined): SessionEntryInput[] {
  const entries: SessionEntryInput[] = []
  for (const message of taskMessages) {
    if (message.kind !== 'tool') continue
    let parsed: unknown = message.arguments
    try {
      parsed = JSON.parse(message.arguments)
    } catch {
      // Kept as the model sent it.
    }
    entries.push({ type: 'tool-call', callId: message.id, name: message.name, arguments: parsed })
    entries.push({ type: 'tool-result', callId: message.id, ok: message.status !== 'error', summary: message.summary })
  }
  if (turn.recipe) entries.push({ type: 'recipe', skill: turn.recipe.skill, summary: turn.recipe.summary, ...(turn.recipe.paths ? { paths: turn.recipe.paths } : {}) })
  if (turn.answer) entries.push({ type: 'assistant', text: turn.answer, ...(model ? { model } : {}) })
  if (usage && usage.calls > 0) {
    entries.push({ type: 'usage', promptTokens: usage.promptTokens, completionTokens: usage.completionTokens, ...(usage.unknownCost ? {} : { cost: usage.cost }), model: model ?? 'unknown' })
  }
  return entries
}

/** The memory a logged conversation had: its turns, with the compactions it went through applied. */
export function turnsFromEntries(entries: readonly SessionEntry[]): { turns: MemoryTurn[]; summary?: string } {
  let turns: MemoryTurn[] = []
  let summary: string | undefined
  for (const entry of entries) {
    const turn = turns.at(-1)
    if (entry.type === 'user') turns.push({ request: entry.text, ...(entry.mentions?.length ? { mentions: entry.mentions } : {}) })
    else if (entry.type === 'assistant' && turn) turn.answer = entry.text
    else if (entry.type === 'tool-result' && turn) (turn.tools ??= []).push(`${entry.summary}${entry.ok ? '' : ' (failed)'}`)
    else if (entry.type === 'recipe' && turn) turn.recipe = { skill: entry.skill, summary: entry.summary, ...(entry.paths ? { paths: entry.paths } : {}) }
    else if (entry.type === 'compaction') {
      summary = entry.summary
      turns = turns.slice(entry.keptFrom)
    }
  }
  return { turns, ...(summary ? { summary } : {}) }
}

/** The panel's messages for a logged conversation (read-only, or continued). */
export function messagesFromEntries(sessionId: string, entries: readonly SessionEntry[]): ChatMessage[] {
  const messages: ChatMessage[] = []
  const calls = new Map<string, Extract<SessionEntry, { type: 'tool-call' }>>()
  entries.forEach((entry, index) => {
    const id = `${sessionId}-${index}`
    const taskId = `${sessionId}-log`
    if (entry.type === 'user') messages.push({ id, kind: 'user', text: entry.text, ...(entry.currentFile ? { file: entry.currentFile } : {}) })
    else if (entry.type === 'assistant') messages.push({ id, kind: 'assistant', taskId, text: entry.text, streaming: false })
    else if (entry.type === 'recipe') messages.push({ id, kind: 'assistant', taskId, text: entry.summary, streaming: false })
    else if (entry.type === 'compaction') messages.push({ id, kind: 'assistant', taskId, text: `**Conversation compacted**: ${entry.summary}`, streaming: false })
    else if (entry.type === 'tool-call') calls.set(entry.callId, entry)
    else if (entry.type === 'tool-result') {
      const call = calls.get(entry.callId)
      messages.push({ id, kind: 'tool', taskId, name: call?.name ?? 'tool', summary: entry.summary, arguments: JSON.stringify(call?.arguments ?? {}), status: entry.ok ? 'done' : 'error' })
    }
  })
  return messages
}

/** A conversation as Markdown, for the author to keep or share. */
export function sessionMarkdown(session: Pick<SessionSummary, 'id' | 'title' | 'createdAt'>, entries: readonly SessionEntry[]): string {
  const lines = [`# ${session.title || 'Conversation'}`, '', `_MetaBlog conversation ${session.id}, started ${session.createdAt}_`, '']
  let cost = 0
  for (const entry of entries) {
    if (entry.type === 'user') lines.push(`## Author`, '', entry.text, ...(entry.mentions?.length ? ['', `Mentioned: ${entry.mentions.join(', ')}`] : []), '')
    else if (entry.type === 'assistant') lines.push(`## MetaBlog`, '', entry.text, '')
    else if (entry.type === 'tool-result') lines.push(`- ${entry.ok ? '✓' : '✗'} ${entry.summary}`, '')
    else if (entry.type === 'recipe') lines.push(`## MetaBlog (${entry.skill})`, '', entry.summary, ...(entry.paths?.length ? ['', `Pages: ${entry.paths.join(', ')}`] : []), '')
    else if (entry.type === 'compaction') lines.push('> **Conversation compacted.** Summary of the earlier turns:', '>', ...entry.summary.split('\n').map((line) => `> ${line}`), '')
    else if (entry.type === 'usage') cost += entry.cost ?? 0
  }
  if (cost > 0) lines.push(`---`, '', `Cost: $${cost.toFixed(4)}`, '')
  return lines.join('\n')
}
