import { messageId } from './messages'
import type { StateMachine } from './state-machine'
import type { ApprovalDecision, ChatMessage, ChatState, ConflictDecision, Proposal } from './types'

/** ask: writes wait for the author; auto-edit: writes apply, deletions wait; plan: the agent gets read tools only. */
export type ApprovalMode = 'ask' | 'auto-edit' | 'plan'

export const APPROVAL_MODES: readonly ApprovalMode[] = ['ask', 'auto-edit', 'plan']

type Decision = ApprovalDecision | ConflictDecision

/** Approval and conflict cards, and the steps waiting for the author's answer to them. */
export class Approvals {
  private readonly waiting = new Map<string, (decision: Decision) => void>()

  constructor(
    private readonly state: ChatState,
    private readonly machine: StateMachine,
    public mode: ApprovalMode,
  ) {}

  /** The author's answer to a card; a card no step waits for any more is ignored. */
  decide(cardId: string, decision: Decision): void {
    this.waiting.get(cardId)?.(decision)
  }

  /** Shows a proposed change and waits for the author; auto-edit accepts all but deletions at once. */
  approve(taskId: string, proposal: Proposal, signal: AbortSignal, mode: ApprovalMode = this.mode): Promise<ApprovalDecision> {
    const id = messageId('approval')
    if (mode === 'auto-edit' && proposal.kind !== 'delete') {
      this.state.pushMessage({ id, kind: 'approval', taskId, proposal, status: 'accepted' })
      return Promise.resolve({ action: 'accept' })
    }
    return this.waitFor({ id, kind: 'approval', taskId, proposal, status: 'pending' }, signal)
  }

  resolveConflict(taskId: string, path: string, summary: string, signal: AbortSignal): Promise<ConflictDecision> {
    return this.waitFor({ id: messageId('conflict'), kind: 'conflict', taskId, path, summary, status: 'pending' }, signal)
  }

  private waitFor<T extends Decision>(card: ChatMessage, signal: AbortSignal): Promise<T> {
    if (signal.aborted) return Promise.reject(signal.reason)
    this.state.pushMessage(card)
    this.machine.transition('WAITING_INPUT')
    return new Promise<T>((resolve, reject) => {
      const settle = (decision: Decision) => {
        this.waiting.delete(card.id)
        signal.removeEventListener('abort', onAbort)
        if (typeof decision === 'string') this.state.updateMessage(card.id, { status: decision })
        else this.state.updateMessage(card.id, { status: decision.action === 'accept' ? 'accepted' : 'rejected' })
        if (this.machine.state === 'WAITING_INPUT') this.machine.transition('EXECUTING')
        resolve(decision as T)
      }
      const onAbort = () => {
        this.waiting.delete(card.id)
        reject(signal.reason)
      }
      signal.addEventListener('abort', onAbort, { once: true })
      this.waiting.set(card.id, settle)
    })
  }
}
