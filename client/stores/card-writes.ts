// What became of an accepted change (written, met a conflict, failed), its Undo, and "Insert into page".
import { reactive, shallowReactive } from 'vue'
import { errorCode } from '../api/errors'
import type { ApprovalDecision, ChatMessage, ConflictDecision } from '../runtime/types'
import type { AssistantMessage, WriteOutcome } from './conversation-storage'
import type { PageWrite, PageWrites } from './page-writes'
import { insertAt, insertionPoint } from './insertion'

type Approval = Extract<AssistantMessage, { kind: 'approval' }>

export interface UndoState {
  busy: boolean
  /** Why the Undo did not happen (the page changed since, a lock…). */
  problem?: string
}

export interface CardWritesOptions {
  /** The conversation as it is now (also changes the panel has not drawn yet). */
  messages(): AssistantMessage[]
  patch(id: string, patch: Partial<AssistantMessage>): void
  push(message: ChatMessage): void
  journal: PageWrites | null
  newId(): string
}

/** The prefix of the task id the panel's own inserts use: no runtime task waits for their cards. */
const INSERT_TASK = 'insert-'

/** A task's streamed answer (a summary, an explanation, a research answer), as opposed to a note. */
export function isTaskReply(message: AssistantMessage): boolean {
  return message.kind === 'assistant' && !!message.taskId && message.id.startsWith(`${message.taskId}-reply-`) && !message.streaming && message.text.trim() !== ''
}

export function createCardWrites(options: CardWritesOptions) {
  const { messages, patch, push, journal } = options
  /** The write each accepted card made, with the text it replaced (not saved: it can be long). */
  const landed = shallowReactive(new Map<string, PageWrite>())
  const undos = reactive(new Map<string, UndoState>())
  /** Conflict card id → the approval card whose write met it. */
  const conflicts = new Map<string, string>()
  /** The panel's own insert cards, waiting for the author. */
  const inserts = new Map<string, { path: string; content: string; hash: string; at: number }>()

  /** The first accepted card of this task and page whose write has not been accounted for yet. */
  function cardFor(taskId: string | undefined, path: string): Approval | undefined {
    return messages().find(
      (message): message is Approval =>
        message.kind === 'approval' &&
        message.taskId === taskId &&
        message.proposal.path === path &&
        message.status === 'accepted' &&
        !landed.has(message.id) &&
        (message.written === undefined || message.written === 'conflict' || message.written === 'reapplied'),
    )
  }

  function setOutcome(id: string, written: WriteOutcome): void {
    patch(id, { written })
  }

  journal?.onWrite((write) => {
    const card = cardFor(write.taskId, write.path)
    if (!card) return
    if (write.refused) {
      setOutcome(card.id, write.refused === 'ERR_STALE' ? 'conflict' : 'failed')
      return
    }
    landed.set(card.id, write)
    if (card.written === 'conflict') setOutcome(card.id, 'reapplied')
  })

  /** The runtime pushed a card: a conflict card belongs to the accepted change that met it. */
  function onPushed(message: ChatMessage): void {
    if (message.kind !== 'conflict') return
    const card = [...messages()]
      .reverse()
      .find((item): item is Approval => item.kind === 'approval' && item.taskId === message.taskId && item.proposal.path === message.path && item.status === 'accepted')
    if (!card) return
    conflicts.set(message.id, card.id)
    setOutcome(card.id, 'conflict')
  }

  /** The author decided a conflict card: its approval card says what became of the change. */
  function onUpdated(id: string, update: Partial<ChatMessage>): void {
    const card = conflicts.get(id)
    if (!card || !('status' in update)) return
    if (update.status === 'drop') setOutcome(card, 'dropped')
    if (update.status === 'reapply') setOutcome(card, 'reapplied')
  }

  function canUndo(id: string): boolean {
    const write = landed.get(id)
    return !!write && write.before !== undefined
  }

  /** Puts the page back as it was before the card's write, only if nobody changed it since. */
  async function undo(id: string): Promise<void> {
    const write = landed.get(id)
    const api = journal?.api
    if (!write || write.before === undefined || !api) return
    undos.set(id, { busy: true })
    try {
      if (write.hash === null) await api.writeFile(write.path, write.before!, null)
      else if (write.before === null) await api.deleteFile(write.path, write.hash)
      else await api.writeFile(write.path, write.before, write.hash)
      landed.delete(id)
      undos.delete(id)
      setOutcome(id, 'undone')
    } catch (error) {
      const code = errorCode(error)
      const problem =
        code === 'ERR_STALE'
          ? `${write.path} changed after this change was applied, so Undo would overwrite that. Nothing was changed.`
          : code === 'ERR_LOCKED'
            ? `${write.path} is locked by a running task. Try again when it is done.`
            : (error as Error).message
      undos.set(id, { busy: false, problem })
    }
  }

  /** Proposes a reply as an addition to `path` (after the selection's paragraph, or at the end): a normal approval card. */
  async function proposeInsert(replyId: string, path: string, selection: string | null): Promise<void> {
    const reply = messages().find((message) => message.id === replyId)
    const api = journal?.api
    if (reply?.kind !== 'assistant' || !api) return
    const { content, hash } = await api.readFile(path)
    const at = insertionPoint(content, selection)
    const id = options.newId()
    inserts.set(id, { path, content, hash, at })
    const where = at === content.length ? 'at the end of the page' : 'after the paragraph you selected'
    push({
      id,
      kind: 'approval',
      taskId: `${INSERT_TASK}${id}`,
      proposal: { kind: 'edit', path, summary: `Insert this answer ${where}`, before: '', after: reply.text.trim() },
      status: 'pending',
    })
  }

  /** Conflict card id → the re-apply of the panel's own insert that met it. */
  const pendingReapply = new Map<string, () => Promise<void>>()

  /** Handles a decision on the panel's own cards; false for a card a runtime task waits for. */
  function decideLocal(id: string, decision: ApprovalDecision | ConflictDecision): boolean {
    const insert = inserts.get(id)
    if (insert && typeof decision === 'object') {
      inserts.delete(id)
      if (decision.action === 'reject') patch(id, { status: 'rejected' })
      else void writeInsert(id, insert, decision.after)
      return true
    }
    const reapply = pendingReapply.get(id)
    if (reapply && typeof decision === 'string') {
      pendingReapply.delete(id)
      // updateMessage reports the decision back through onUpdated, which labels the approval card.
      patch(id, { status: decision })
      if (decision === 'reapply') {
        reapply().catch((error: unknown) => push({ id: options.newId(), kind: 'error', code: errorCode(error) ?? 'ERR_UI', message: (error as Error).message }))
      }
      return true
    }
    return false
  }

  async function writeInsert(id: string, insert: { path: string; content: string; hash: string; at: number }, edited?: string): Promise<void> {
    const approval = messages().find((message): message is Approval => message.id === id && message.kind === 'approval')
    const text = edited ?? approval?.proposal.after ?? ''
    const api = journal!.api!
    patch(id, { status: 'accepted' })
    try {
      const content = insertAt(insert.content, insert.at, text)
      const written = await api.writeFile(insert.path, content, insert.hash)
      landed.set(id, { path: insert.path, before: insert.content, hash: written.hash, at: Date.now() })
      if (approval?.written === 'conflict') setOutcome(id, 'reapplied')
    } catch (error) {
      if (errorCode(error) !== 'ERR_STALE') {
        setOutcome(id, 'failed')
        push({ id: options.newId(), kind: 'error', code: errorCode(error) ?? 'ERR_UI', message: (error as Error).message })
        return
      }
      // The page changed while the author decided: like any edit, they choose to re-apply or drop.
      const conflictId = options.newId()
      conflicts.set(conflictId, id)
      setOutcome(id, 'conflict')
      pendingReapply.set(conflictId, async () => {
        const fresh = await api.readFile(insert.path)
        await writeInsert(id, { path: insert.path, content: fresh.content, hash: fresh.hash, at: fresh.content.length }, text)
      })
      push({ id: conflictId, kind: 'conflict', taskId: `${INSERT_TASK}${id}`, path: insert.path, summary: `${insert.path} changed while you decided. Re-apply adds the text at the end of its current version.`, status: 'pending' })
    }
  }

  return { onPushed, onUpdated, canUndo, undo, undos, proposeInsert, decideLocal }
}
