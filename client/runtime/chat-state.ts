import type { CostTotals } from './cost-tracker'
import type { AgentState } from './state-machine'
import type { ChatMessage, ChatState, ResumableTask, TaskProgress } from './types'

/** A ChatState in plain objects, for tests and for runtimes without a UI. */
export function createPlainChatState() {
  const state = {
    messages: [] as ChatMessage[],
    status: 'IDLE' as AgentState,
    taskId: null as string | null,
    progress: null as TaskProgress | null,
    resumable: [] as ResumableTask[],
    sessionCost: null as CostTotals | null,
    pushMessage(message: ChatMessage) {
      state.messages.push(message)
    },
    updateMessage(id: string, patch: Partial<ChatMessage>) {
      const index = state.messages.findIndex((message) => message.id === id)
      if (index !== -1) state.messages[index] = { ...state.messages[index], ...patch } as ChatMessage
    },
    setStatus(status: AgentState, taskId: string | null) {
      state.status = status
      state.taskId = taskId
    },
    setProgress(progress: TaskProgress | null) {
      state.progress = progress
    },
    setResumable(tasks: ResumableTask[]) {
      state.resumable = tasks
    },
    setSessionCost(cost: CostTotals) {
      state.sessionCost = cost
    },
  }
  return state satisfies ChatState
}
