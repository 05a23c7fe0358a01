// What an approval card says once it is settled: the write's real outcome, not just the author's answer.
import type { AssistantMessage } from '../stores/conversation-storage'

export interface ApprovalOutcome {
  /** For tests and styles: accepted, deleted, conflict, reapplied, dropped, failed, undone, rejected, stopped. */
  name: string
  tone: 'success' | 'warning' | 'danger' | 'muted'
  text: string
}

export function approvalOutcome(message: Extract<AssistantMessage, { kind: 'approval' }>, live: boolean): ApprovalOutcome | null {
  const deletion = message.proposal.kind === 'delete'
  if (message.status === 'accepted') {
    switch (message.written) {
      case 'conflict':
        return { name: 'conflict', tone: 'warning', text: `Not applied: ${message.proposal.path} changed meanwhile` }
      case 'reapplied':
        return { name: 'reapplied', tone: 'success', text: 'Accepted and re-applied to the current text' }
      case 'dropped':
        return { name: 'dropped', tone: 'muted', text: 'Not applied: you kept the newer text' }
      case 'failed':
        return { name: 'failed', tone: 'danger', text: 'Not applied: the write failed (see below)' }
      case 'undone':
        return { name: 'undone', tone: 'muted', text: deletion ? 'Undone: the page is back' : 'Undone: the page is back as it was' }
      default:
        return deletion ? { name: 'deleted', tone: 'success', text: 'Deleted' } : { name: 'accepted', tone: 'success', text: 'Accepted' }
    }
  }
  if (message.status === 'rejected') return { name: 'rejected', tone: 'muted', text: 'Rejected' }
  if (!live) return { name: 'stopped', tone: 'muted', text: 'Not applied: the task stopped before you decided' }
  return null
}
