// The assistant for the components: one AgentRuntime, its ChatState in refs, the conversation kept per tab.
import { defineStore } from 'pinia'
import { computed, ref, shallowRef, watch } from 'vue'
import type { LlmStatusResponse } from '../../plugin/protocol'
import { errorCode } from '../api/errors'
import type { AgentRuntime, ApprovalMode } from '../runtime/agent-runtime'
import { getAgentRuntime, pageWrites } from '../runtime/page-runtime'
import { addCosts, emptyCost, type CostTotals } from '../runtime/cost-tracker'
import type { SlashCommand } from '../runtime/vocabulary'
import { FINAL_STATES, type AgentState } from '../runtime/state-machine'
import type { ApprovalDecision, ChatMessage, ChatState, ConflictDecision, ResumableTask, TaskProgress } from '../runtime/types'
import type { SessionResponse, SessionSummary } from '../api/sessions'
import { PROMPTS_UPDATED_EVENT } from '../api/prompts'
import { clearSavedConversation, loadConversation, saveConversation, type AssistantMessage } from './conversation-storage'
import { savedSessionId, saveSessionId } from './session-storage'
import { useModelChoice } from './model-choice'
import { offeredCommands } from './slash-commands'
import { createCardWrites } from './card-writes'
import { createResumeActions } from './resume-actions'
import { createFrameBatch } from './frame-batch'
import type { PageWrites } from './page-writes'
import { builtinSkills } from '../skills'

export type { AssistantMessage } from './conversation-storage'

export type { ResumeOutcome } from './resume-actions'

/** Builds the runtime around the store's ChatState; null when the page has no dev-server API. */
export type RuntimeFactory = (state: ChatState) => AgentRuntime | null

/** States in which a task is under way (the Stop button shows). */
export const BUSY_STATES: readonly AgentState[] = ['UNDERSTANDING', 'PLANNING', 'EXECUTING', 'WAITING_INPUT']

const SAVE_DELAY_MS = 300

export const createPageRuntime: RuntimeFactory = getAgentRuntime

let noteCounter = 0
const noteId = () => `ui-${Date.now().toString(36)}-${(noteCounter++).toString(36)}`

/** A card the author can still act on: pending, and its task still waiting in this page. */
export function isLiveCard(message: AssistantMessage): boolean {
  return (message.kind === 'approval' || message.kind === 'conflict') && message.status === 'pending' && !message.interrupted
}

export const useAssistantStore = defineStore('metablog-assistant', () => {
  const saved = loadConversation()
  const messages = shallowRef<AssistantMessage[]>(saved.messages)
  const status = ref<AgentState>('IDLE')
  const taskId = ref<string | null>(null)
  const progress = shallowRef<TaskProgress | null>(null)
  const resumable = shallowRef<ResumableTask[]>([])
  const runtimeCost = shallowRef<CostTotals>(emptyCost())
  const sessionCost = computed(() => addCosts(saved.cost, runtimeCost.value))
  const modelStatus = shallowRef<LlmStatusResponse | null>(null)
  const connected = ref(false)
  const ready = ref(false)
  const open = ref(saved.open)
  const draft = ref(saved.draft)
  const selection = ref<string | null>(null)
  /** Pages @-mentioned for the next request, shown as chips. */
  const mentions = ref<{ path: string; title: string }[]>([])
  const currentFile = ref<string | undefined>(undefined)
  const approvalMode = ref<ApprovalMode>('ask')
  /** The slash menu, from the skills the runtime understands. */
  const commands = shallowRef<readonly SlashCommand[]>([])
  /** Whether the "connect a model" card shows (it can be hidden for the rest of the page's life). */
  const setupOpen = ref(true)
  /** The page written last (by a task or in the author's editor), a new object each time. */
  const writtenPage = shallowRef<{ path: string } | null>(null)
  /** A request sent whose task has not reported a state yet. */
  const starting = ref(false)
  const isWorking = computed(() => starting.value || BUSY_STATES.includes(status.value))
  const pendingCards = computed(() => messages.value.filter(isLiveCard).length)
  let runtime: AgentRuntime | null = null
  const modelChoice = useModelChoice(() => runtime)

  // The runtime's changes reach the panel once a frame (see frame-batch.ts); the runtime itself, and
  // the store's own changes, always see and build on the latest state.
  const frame = createFrameBatch()
  function latest(): AssistantMessage[] {
    frame.flush()
    return messages.value
  }

  function patchMessages(match: (message: AssistantMessage) => boolean, patch: (message: AssistantMessage) => Partial<AssistantMessage>): void {
    messages.value = latest().map((message) => (match(message) ? ({ ...message, ...patch(message) } as AssistantMessage) : message))
  }

  let writes: ReturnType<typeof createCardWrites> | null = null

  /** A finished task can no longer take decisions, and its last reply shows what the task spent. */
  function settleTask(id: string): void {
    patchMessages((message) => isLiveCard(message) && 'taskId' in message && message.taskId === id, () => ({ interrupted: true }))
    // A tool call still running when its task ended was stopped with it.
    patchMessages((message) => message.kind === 'tool' && message.status === 'running' && message.taskId === id, () => ({ interrupted: true }))
    const spent = runtime?.costs.task(id)
    const replies = messages.value.filter((message) => message.kind === 'assistant' && message.taskId === id)
    const last = replies.at(-1)
    if (spent && spent.calls > 0 && last && !replies.some((reply) => reply.kind === 'assistant' && reply.cost)) {
      patchMessages((message) => message.id === last.id, () => ({ cost: spent }))
    }
  }

  /** Adds a message now (the store's own, or the runtime's once its frame comes). */
  function push(message: ChatMessage): void {
    messages.value = [...latest(), message]
    writes?.onPushed(message)
  }

  function update(id: string, patch: Partial<ChatMessage>): void {
    const current = latest()
    // Only that one message: an id is never reused, but a conversation saved by an older version may repeat one.
    const index = current.findLastIndex((message) => message.id === id)
    if (index !== -1) messages.value = current.with(index, { ...current[index], ...patch } as AssistantMessage)
    writes?.onUpdated(id, patch)
  }

  const chatState: ChatState = {
    get messages() {
      return latest()
    },
    pushMessage(message: ChatMessage) {
      frame.defer(() => push(message))
    },
    updateMessage(id, patch) {
      frame.defer(() => update(id, patch))
    },
    setStatus(state, id) {
      // A task starts, waits for the author or ends a few times at most: shown at once, with what led to it.
      frame.flush()
      starting.value = false
      status.value = state
      taskId.value = id
      if (id !== null && FINAL_STATES.includes(state)) settleTask(id)
    },
    setProgress(value) {
      frame.defer(() => (progress.value = value))
    },
    setResumable(tasks) {
      // Rare, and the store's own resume and discard change the list too: at once, after what came before.
      frame.flush()
      resumable.value = tasks
    },
    setSessionCost(cost) {
      frame.defer(() => (runtimeCost.value = cost))
    },
    hold: () => frame.hold(),
  }

  function note(text: string, task?: string): void {
    push({ id: noteId(), kind: 'assistant', taskId: task, text, streaming: false })
  }

  function reportFailure(error: unknown, retryText?: string, task?: string): void {
    const message = error instanceof Error ? error.message : String(error)
    push({ id: noteId(), kind: 'error', taskId: task, code: errorCode(error) ?? 'ERR_UI', message, retryText })
  }

  /** Runs a runtime call that lasts as long as its task, turning a throw into an error card. */
  function track(start: () => Promise<unknown>, retryText?: string, task?: string): void {
    starting.value = true
    start()
      .catch((error: unknown) => reportFailure(error, retryText, task))
      .finally(() => {
        starting.value = false
        // A status that failed to load is asked for again with each request.
        modelStatus.value = runtime?.modelStatus ?? null
      })
  }

  /**
   * Builds the runtime once; later calls are no-ops. False when the page has no dev-server API.
   * `journal` sees the runtime's page writes (it wraps its API), for Undo and Insert into page.
   */
  function connect(factory: RuntimeFactory = createPageRuntime, journal: PageWrites | null = factory === createPageRuntime ? pageWrites : null): boolean {
    if (runtime) return true
    runtime = factory(chatState)
    if (!runtime) return false
    writes = createCardWrites({
      messages: latest,
      patch: (id, patch) => update(id, patch as Partial<ChatMessage>),
      push,
      journal,
      newId: noteId,
    })
    runtime.approvalMode = approvalMode.value
    commands.value = offeredCommands(runtime.commands, builtinSkills)
    connected.value = true
    // A changed page can change how risky a resume is: the resume banner checks again.
    runtime.bus.on('file:written', ({ path }) => (writtenPage.value = { path }))
    // The header's dot follows the last real request, and a task that failed on the model.
    runtime.bus.on('llm:request', modelChoice.recordRequest)
    runtime.bus.on('agent:taskFailed', ({ error }) => {
      if (error.code.startsWith('ERR_LLM_')) modelChoice.recordRequest({ ok: false, code: error.code, message: error.message, at: Date.now() })
    })
    const started = runtime
    // After a reload the panel still shows the conversation: its memory comes back from the session log.
    const sessionId = savedSessionId()
    if (sessionId && messages.value.length > 0) void started.restoreSession(sessionId)
    void refreshPrompts()
    // A prompt file added or changed while the dev server runs joins the slash menu without a reload.
    import.meta.hot?.on(PROMPTS_UPDATED_EVENT, () => void refreshPrompts())
    void started.initialize().then(() => {
      modelStatus.value = started.modelStatus
      ready.value = true
      if (started.modelStatus?.configured) void modelChoice.loadModels()
    })
    return true
  }

  let shownProblems = ''
  /** Loads the author's prompts into the slash menu; a bad prompt file is a warning in the panel, once. */
  async function refreshPrompts(): Promise<void> {
    if (!runtime) return
    try {
      const { problems } = await runtime.refreshPrompts()
      commands.value = offeredCommands(runtime.commands, builtinSkills)
      const text = problems.map(({ file, message }) => `- ${file}: ${message}`).join('\n')
      if (text && text !== shownProblems) note(`Some of your prompt files could not be used:\n${text}`)
      shownProblems = text
    } catch (error) {
      // A dev server without the prompts route: no custom prompts, nothing to warn about.
      if ((error as { status?: number }).status !== 404) reportFailure(error)
    }
  }

  function send(text: string): boolean {
    const request = text.trim()
    if (!runtime || request === '' || isWorking.value) return false
    const selectedText = selection.value ?? undefined
    const mentioned = mentions.value.map((page) => page.path)
    selection.value = null
    mentions.value = []
    track(() => runtime!.processInput(request, { currentFile: currentFile.value, selectedText, ...(mentioned.length ? { mentions: mentioned } : {}) }), request)
    saveSessionId(runtime.conversation.sessionId)
    return true
  }

  /** Adds a page chip for the next request (once). */
  function mention(page: { path: string; title: string }): void {
    if (!mentions.value.some((chip) => chip.path === page.path)) mentions.value = [...mentions.value, page]
  }

  function unmention(path: string): void {
    mentions.value = mentions.value.filter((chip) => chip.path !== path)
  }

  /** Pages for the mention picker; none when the page has no dev-server API. */
  async function findPages(query: string, signal?: AbortSignal): Promise<{ path: string; title: string }[]> {
    return runtime ? runtime.findPages(query, signal) : []
  }

  /** A plan-mode answer's "Run this plan": an ask-mode agent request carrying the plan. */
  function runPlan(messageId: string): boolean {
    const message = messages.value.find((item) => item.id === messageId)
    if (!runtime || message?.kind !== 'assistant' || !message.plan || isWorking.value) return false
    const plan = message.plan
    track(() => runtime!.runPlan(plan, { currentFile: currentFile.value }))
    return true
  }

  function stop(): boolean {
    return runtime?.abort(taskId.value ?? undefined) ?? false
  }

  function decide(messageId: string, decision: ApprovalDecision | ConflictDecision): void {
    if (writes?.decideLocal(messageId, decision)) return
    runtime?.decide(messageId, decision)
    // No task was waiting for this card (it outlived its task): say so instead of doing nothing.
    patchMessages((message) => message.id === messageId && isLiveCard(message), () => ({ interrupted: true }))
  }

  /**
   * An error card's Retry: a task whose progress was saved resumes from there; any other request is
   * sent again, with the page and selection it first had.
   */
  function retry(messageId: string): boolean {
    const index = messages.value.findIndex((message) => message.id === messageId)
    const failed = messages.value[index]
    if (!runtime || failed?.kind !== 'error' || !failed.retryText || isWorking.value) return false
    const saved = failed.taskId
    if (saved && resumable.value.some((task) => task.taskId === saved || task.superseded?.includes(saved))) {
      void resumeFromCard(saved)
      return true
    }
    const asked = messages.value
      .slice(0, index)
      .findLast((message): message is Extract<ChatMessage, { kind: 'user' }> => message.kind === 'user' && message.text === failed.retryText)
    const { retryText } = failed
    track(() => runtime!.processInput(retryText, { currentFile: asked?.file ?? currentFile.value, selectedText: asked?.selection }), retryText)
    return true
  }

  const { previewResume, resume, resumeFromCard, discard, discardAll } = createResumeActions({
    runtime: () => runtime,
    resumable,
    starting,
    isWorking,
    patchMessages,
    note,
    reportFailure,
    track,
  })

  /** An applied card's Undo: back to the text before its write, unless the page changed since. */
  function undo(messageId: string): Promise<void> {
    return writes?.undo(messageId) ?? Promise.resolve()
  }

  /** Offers a reply as an addition to the current page, through an approval card like any edit. */
  async function insertReply(messageId: string): Promise<void> {
    const path = currentFile.value
    if (!path) return note('Open the page you want the text in, then use Insert into page again.')
    try {
      await writes?.proposeInsert(messageId, path, selection.value)
    } catch (error) {
      reportFailure(error)
    }
  }

  function setApprovalMode(mode: ApprovalMode): void {
    approvalMode.value = mode
    if (runtime) runtime.approvalMode = mode
  }

  /** Starts a new conversation; what this tab spent stays in the session total. */
  function clearConversation(): void {
    if (isWorking.value) return
    frame.flush()
    messages.value = []
    runtime?.newConversation()
    modelChoice.resetModel()
    clearSavedConversation()
    saveSessionId(undefined)
  }

  /** The logged conversations, newest first; empty when the dev server keeps none. */
  async function listSessions(): Promise<SessionSummary[]> {
    if (!runtime?.sessions) return []
    const { sessions } = await runtime.sessions.list()
    return [...sessions].sort((a, b) => b.updatedAt.localeCompare(a.updatedAt))
  }

  async function readSession(id: string): Promise<SessionResponse> {
    if (!runtime?.sessions) throw new Error('The assistant is not connected to the dev server.')
    return runtime.sessions.read(id)
  }

  /** History's "Continue": the logged conversation becomes the current one, with its context. */
  async function continueSession(id: string): Promise<void> {
    if (!runtime || isWorking.value) return
    const conversation = await runtime.continueSession(id)
    frame.flush()
    messages.value = conversation
    saveSessionId(id)
  }

  // A selection belongs to the page it was made on.
  watch(currentFile, () => {
    selection.value = null
  })

  let saveTimer: ReturnType<typeof setTimeout> | undefined
  function persist(): void {
    clearTimeout(saveTimer)
    saveTimer = undefined
    saveConversation({ messages: latest(), cost: sessionCost.value, draft: draft.value, open: open.value })
  }
  watch([messages, sessionCost, draft, open], () => {
    // Streaming updates arrive many times a second; one write per pause is enough.
    saveTimer ??= setTimeout(persist, SAVE_DELAY_MS)
  })
  if (typeof window !== 'undefined') window.addEventListener('pagehide', persist)

  return {
    // state
    messages, status, taskId, progress, resumable, sessionCost, modelStatus, connected, ready,
    open, draft, selection, mentions, currentFile, approvalMode, commands, setupOpen, isWorking, pendingCards, writtenPage,
    // actions
    connect, send, mention, unmention, findPages, runPlan, stop, decide, retry, previewResume, resume, discard, discardAll, setApprovalMode, clearConversation, persist,
    listSessions, readSession, continueSession, refreshPrompts, undo, insertReply,
    canUndo: (id: string) => writes?.canUndo(id) ?? false,
    undoState: (id: string) => writes?.undos.get(id),
    // the model picker
    models: modelChoice.models, chosenModel: modelChoice.chosenModel, lastRequest: modelChoice.lastRequest,
    loadModels: modelChoice.loadModels, chooseModel: modelChoice.chooseModel, recordRequest: modelChoice.recordRequest,
  }
})
