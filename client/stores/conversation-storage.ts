// The conversation in sessionStorage, so a reload or a full navigation keeps it for this tab.
import { emptyCost, type CostTotals } from '../runtime/cost-tracker'
import type { ChatMessage } from '../runtime/types'

/**
 * What became of an accepted change's write: it met a conflict (the conflict card decides), was
 * re-applied or dropped there, failed, or was undone afterwards.
 */
export type WriteOutcome = 'conflict' | 'reapplied' | 'dropped' | 'failed' | 'undone'

/**
 * A chat message as the UI keeps it: `interrupted` marks a card or stream whose task is gone;
 * `written` is an approval card's real outcome once the write was tried.
 */
export type AssistantMessage = ChatMessage & { interrupted?: boolean; written?: WriteOutcome }

export interface SavedConversation {
  messages: AssistantMessage[]
  /** What earlier page loads in this tab spent. */
  cost: CostTotals
  draft: string
  open: boolean
}

const STORAGE_KEY = 'metablog:conversation:v1'
/** Enough history to be useful, little enough to stay far below the storage quota. */
const KEEP_MESSAGES = [200, 40]

function storage(): Storage | null {
  try {
    return typeof sessionStorage === 'undefined' ? null : sessionStorage
  } catch {
    // Storage can be blocked by the browser's privacy settings.
    return null
  }
}

export function emptyConversation(): SavedConversation {
  return {
    messages: [],
    cost: emptyCost(),
    draft: '',
    open: false,
  }
}

function isMessage(value: unknown): value is AssistantMessage {
  const message = value as { id?: unknown; kind?: unknown } | null
  return typeof message?.id === 'string' && typeof message.kind === 'string'
}

/** A waiting card or a stream from an earlier page load has lost its task: the resume banner takes over. */
function interrupt(message: AssistantMessage): AssistantMessage {
  if ((message.kind === 'approval' || message.kind === 'conflict') && message.status === 'pending') return { ...message, interrupted: true }
  if (message.kind === 'assistant' && message.streaming) return { ...message, streaming: false, interrupted: true }
  if (message.kind === 'tool' && message.status === 'running') return { ...message, interrupted: true }
  return message
}

/** Each message needs its own id (the list's key); older versions could repeat one after a resume. */
function uniqueIds(messages: AssistantMessage[]): AssistantMessage[] {
  const seen = new Set<string>()
  return messages.map((message, index) => {
    const id = seen.has(message.id) ? `${message.id}-${index}` : message.id
    seen.add(id)
    return id === message.id ? message : { ...message, id }
  })
}

export function loadConversation(): SavedConversation {
  const fallback = emptyConversation()
  try {
    const saved = JSON.parse(storage()?.getItem(STORAGE_KEY) ?? 'null') as Partial<SavedConversation> | null
    if (!saved || !Array.isArray(saved.messages)) return fallback
    return {
      messages: uniqueIds(saved.messages.filter(isMessage).map(interrupt)),
      cost: { ...fallback.cost, ...saved.cost },
      draft: typeof saved.draft === 'string' ? saved.draft : '',
      open: saved.open === true,
    }
  } catch {
    return fallback
  }
}

/** A tool row keeps this much of its result across a reload: a read's result is a whole page, saved again at every pause. */
export const SAVED_RESULT_CHARS = 2_000

function forStorage(message: AssistantMessage): AssistantMessage {
  if (message.kind !== 'tool' || message.result === undefined || message.result.length <= SAVED_RESULT_CHARS) return message
  const left = message.result.length - SAVED_RESULT_CHARS
  return { ...message, result: `${message.result.slice(0, SAVED_RESULT_CHARS)}… (${left.toLocaleString('en-US')} more characters)` }
}

export function saveConversation(conversation: SavedConversation): void {
  const store = storage()
  if (!store) return
  for (const keep of KEEP_MESSAGES) {
    try {
      store.setItem(STORAGE_KEY, JSON.stringify({ ...conversation, messages: conversation.messages.slice(-keep).map(forStorage) }))
      return
    } catch {
      // Over the quota (long diffs): try again with less history.
    }
  }
}

export function clearSavedConversation(): void {
  storage()?.removeItem(STORAGE_KEY)
}
