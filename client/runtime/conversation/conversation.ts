// The runtime's side of the conversation: what each finished task adds to memory, compaction with
// its marker in the panel, and the window the budget comes from.
import type { SessionEntry, SessionsApi } from '../../api/sessions'
import type { PromptMode } from '../../../plugin/protocol'
import type { ConversationPort } from '../agent-loop'
import type { CostTotals } from '../cost-tracker'
import type { Logger } from '../logger'
import { messageId } from '../messages'
import type { ChatMessage, ChatState, ModelPort } from '../types'
import { withoutFoldedReasoning } from '../model-output'
import { KEEP_SHARE } from './compaction'
import { contextWindow } from './context-window'
import { ConversationMemory, type Compaction, type HistoryEntry, type MemoryTurn } from './memory'
import { entriesForTurn, messagesFromEntries, turnsFromEntries } from './session-entries'
import { SessionLog } from './session-log'

/** What memory keeps of a recipe's reply. */
const RECIPE_SUMMARY_LIMIT = 600

/** A finished task as the runtime saw it: the request, the task's messages and the pages it wrote. */
export interface FinishedTurn {
  request: string
  skill: string
  taskId: string
  /** Pages the request mentioned. */
  mentions?: string[]
  written: string[]
}

/** The model the log's last meta entry names: the conversation's model from there on. */
export function modelOfEntries(entries: readonly SessionEntry[]): string | null {
  const meta = entries.findLast((entry): entry is Extract<SessionEntry, { type: 'meta' }> => entry.type === 'meta' && typeof entry.model === 'string' && entry.model !== '')
  return meta?.model ?? null
}

export class Conversation {
  readonly memory = new ConversationMemory()

  constructor(
    private readonly options: {
      state: ChatState
      logger: Logger
      /** The author's context-window option: model name (or "*") → tokens. */
      windows?: Readonly<Record<string, number>>
      /** The session-log routes every turn is appended to; null when the page has none. */
      sessions?: SessionsApi | null
      /** What a task spent, and the model in use, for the log. */
      usage?: (taskId: string) => CostTotals | undefined
      model?: () => string | undefined
      /** A continued or restored conversation's model, from its log (null: it named none). */
      restoreModel?: (model: string | null) => void
    },
  ) {
    this.log = options.sessions ? new SessionLog(options.sessions, options.logger) : null
  }

  private readonly log: SessionLog | null
  private logged = false
  /** A memory being restored from the log after a reload: requests wait for it. */
  restoring: Promise<void> = Promise.resolve()
  /** The log being restored: it is this conversation's id already, so a request sent meanwhile names it. */
  private restoringId: string | null = null
  /** Bumped by a new or continued conversation, so a restore that finishes later does not bring the old one back. */
  private generation = 0

  /** Continues a logged conversation; the panel's messages for it are returned. */
  async continueSession(id: string): Promise<ChatMessage[]> {
    if (!this.options.sessions) throw new Error('This dev server does not keep conversation logs.')
    const session = await this.options.sessions.read(id)
    this.generation++
    this.restoringId = null
    this.continueFrom(id, session.entries)
    return messagesFromEntries(id, session.entries)
  }

  /** After a reload: memory comes back from the log, unless the conversation already went on. */
  restoreSession(id: string): Promise<void> {
    const sessions = this.options.sessions
    if (!sessions || this.memory.turnCount > 0) return Promise.resolve()
    const generation = this.generation
    this.restoringId = id
    this.restoring = sessions
      .read(id)
      .then((session) => {
        if (generation === this.generation && this.memory.turnCount === 0) this.continueFrom(id, session.entries)
      })
      // A failure only loses the memory: the next request starts afresh.
      .catch((error: unknown) => this.options.logger.log('agent.error', { where: 'session-restore', message: (error as Error).message }, 'warn'))
      .finally(() => {
        if (generation === this.generation) this.restoringId = null
      })
    return this.restoring
  }

  get sessionId(): string | undefined {
    return this.restoringId ?? this.log?.id
  }

  /** Logs the author's request as it arrives (the rest of the turn is logged when it ends). */
  request(text: string, context: { currentFile?: string; mentions?: string[]; mode?: PromptMode }): void {
    const log = this.log
    if (!log) return
    if (!this.logged) log.append({ type: 'meta', ...(context.mode ? { mode: context.mode } : {}), ...(this.options.model?.() ? { model: this.options.model()! } : {}) })
    this.logged = true
    log.append({ type: 'user', text, ...(context.currentFile ? { currentFile: context.currentFile } : {}), ...(context.mentions?.length ? { mentions: context.mentions } : {}) })
  }

  /** Continues a logged conversation: its memory and its model come back, and later turns go to its log. */
  continueFrom(id: string, entries: readonly SessionEntry[]): void {
    const { turns, summary } = turnsFromEntries(entries)
    this.memory.load(turns, summary)
    this.log?.switchTo(id)
    this.logged = true
    this.options.restoreModel?.(modelOfEntries(entries))
  }

  /** A model picked mid-conversation is a setting "from here on"; before the first request, the opening meta entry names it. */
  logModel(model: string | null): void {
    if (this.logged && model) this.log?.append({ type: 'meta', model })
  }

  /** A new conversation: empty memory, a new log. */
  restart(): void {
    this.generation++
    this.restoringId = null
    this.memory.clear()
    this.log?.restart()
    this.logged = false
  }

  window(model: string): number {
    return contextWindow(model, this.options.windows)
  }

  history(): HistoryEntry[] {
    return this.memory.history()
  }

  /** The port the agent loop uses to measure and compact the conversation. */
  port(): ConversationPort {
    return {
      window: (model) => this.window(model),
      compact: async (model, reason, taskId, keepTokens) => ((await this.compact(model, reason, taskId, keepTokens)) ? this.history() : null),
    }
  }

  /** Summarises the older turns and shows the "Conversation compacted" marker; null when there was nothing to summarise. */
  async compact(model: ModelPort, reason: 'budget' | 'overflow' | 'command', taskId?: string, keepTokens?: number): Promise<Compaction | null> {
    const window = this.window(model.model)
    // Asked for, or the provider refused the request (the window we assumed is too large): keep only the last turn verbatim.
    const keep = reason === 'budget' ? Math.min(keepTokens ?? Infinity, Math.floor(window * KEEP_SHARE)) : 0
    const compaction = await this.memory.compact(model, window, keep)
    this.options.logger.log('agent.conversation.compacted', { reason, window, summarised: compaction?.summarised ?? 0, kept: compaction?.kept.length ?? 0 })
    if (!compaction) return null
    const kept = compaction.kept.map((request) => `“${request.length > 60 ? `${request.slice(0, 57)}…` : request}”`).join(', ')
    const why = reason === 'overflow' ? ' (the model said the request was too long)' : reason === 'budget' ? ` (it neared the model's ${window.toLocaleString('en-US')}-token window)` : ''
    this.options.state.pushMessage({
      id: messageId('compaction'),
      kind: 'assistant',
      taskId,
      streaming: false,
      text: `**Conversation compacted**${why}: ${compaction.summarised} earlier turn${compaction.summarised === 1 ? '' : 's'} summarised; kept verbatim: ${kept}.`,
    })
    this.log?.append({ type: 'compaction', summary: compaction.summary, keptFrom: compaction.keptFrom })
    return compaction
  }

  /** Adds a finished task to memory: an agent turn with its answer and tool calls, or what a recipe produced. */
  remember(finished: FinishedTurn, messages: readonly ChatMessage[]): void {
    const own = messages.filter((message) => 'taskId' in message && message.taskId === finished.taskId)
    // Reasoning is shown folded in the panel but never sent back to the model.
    const replies = own
      .filter((message): message is Extract<ChatMessage, { kind: 'assistant' }> => message.kind === 'assistant' && !message.id.startsWith('compaction'))
      .map((message) => ({ ...message, text: withoutFoldedReasoning(message.text) }))
      .filter((message) => message.text !== '')
    const turn: MemoryTurn = { request: finished.request, ...(finished.mentions?.length ? { mentions: finished.mentions } : {}) }
    if (finished.skill === 'agent') {
      const tools = own.flatMap((message) => (message.kind === 'tool' ? [`${message.summary}${message.status === 'error' ? ' (failed)' : ''}`] : []))
      if (tools.length) turn.tools = tools
      const answer = replies.at(-1)?.text
      if (answer) turn.answer = answer
    } else {
      const summary = replies.map((reply) => reply.text).join('\n').slice(-RECIPE_SUMMARY_LIMIT)
      turn.recipe = { skill: finished.skill, summary, ...(finished.written.length ? { paths: [...new Set(finished.written)] } : {}) }
    }
    this.memory.remember(turn)
    for (const entry of entriesForTurn(turn, own, this.options.usage?.(finished.taskId), this.options.model?.())) this.log?.append(entry)
  }
}
