import type OpenAI from 'openai'
import type { MetaBlogApi } from '../api/metablog-api'
import type { EventBus, MetaBlogEvents } from '../event-bus'
import type { CostTracker } from './cost-tracker'
import type { Logger } from './logger'
import type { ApprovalMode } from './approvals'
import type { ApprovalDecision, ChatState, ConflictDecision, Proposal } from './types'

/** What a running task needs from the runtime around it. */
export interface TaskHost {
  api: MetaBlogApi
  llm: OpenAI | null
  model: string | null
  costs: CostTracker
  logger: Logger
  state: ChatState
  bus: EventBus<MetaBlogEvents>
  /** The tab running the task, recorded in its checkpoints. */
  tabId: string
  touch(): void
  approve(taskId: string, proposal: Proposal, signal: AbortSignal, mode?: ApprovalMode): Promise<ApprovalDecision>
  resolveConflict(taskId: string, path: string, summary: string, signal: AbortSignal): Promise<ConflictDecision>
}

let counter = 0
export function createTaskId(now = Date.now()): string {
  counter = (counter + 1) % 1296
  return `task-${now.toString(36)}-${counter.toString(36)}${Math.random().toString(36).slice(2, 6)}`
}
