import type OpenAI from 'openai'
import type { Checkpoint, LlmModelsResponse, LlmStatusResponse } from '../../plugin/protocol'
import type { MetaBlogApi } from '../api/metablog-api'
import type { PromptsResponse } from '../api/prompts'
import type { SessionsApi } from '../api/sessions'
import { createEventBus, type EventBus, type MetaBlogEvents } from '../event-bus'
import { builtinSkills } from '../skills'
import { AGENT_SKILL, createAgentSkill, planRequest } from '../skills/agent'
import type { ApprovalMode } from './approvals'
import { createPlainChatState } from './chat-state'
import { classifyWithModel } from './classify'
import { Conversation } from './conversation/conversation'
import { CustomPrompts } from './conversation/custom-prompts'
import { CostTracker } from './cost-tracker'
import { IntentRouter, type RouteContext } from './intent-router'
import { createLogger, type Logger } from './logger'
import { BUSY, messageId } from './messages'
import { ModelStatus } from './model-status'
import { ResumableTasks } from './resumable-tasks'
import { findCheckpoint, previewResume, ResumeRefusedError, type ResumePreview, type ResumeStatus } from './resume'
import { startResume } from './resume-flow'
import { handleRequest, type RequestHost } from './request-flow'
import { builtinCommands, compactNow, extraHelp, slashMenu } from './runtime-commands'
import { DEFAULT_WATCHDOG_MS, type AgentState } from './state-machine'
import { currentTabId } from './tab-id'
import { TaskSlot } from './task-slot'
import type { AgentRuntimeOptions } from './runtime-options'
import type { ApprovalDecision, ChatMessage, ChatState, ConflictDecision, Skill, TaskRecord } from './types'
import type { SlashCommand } from './vocabulary'

export type { ApprovalMode } from './approvals'
export { ResumeRefusedError } from './resume'
export type { ResumeStatus } from './resume'
export type { TaskRecord } from './types'
export { COMPACT_COMMAND } from './runtime-commands'
export { HISTORY_LIMIT } from './task-slot'
export type { AgentRuntimeOptions } from './runtime-options'

/** The agent behind the orb: understands a request, runs the skill for it, and can stop or resume it. */
export class AgentRuntime {
  readonly state: ChatState
  readonly bus: EventBus<MetaBlogEvents>
  readonly logger: Logger
  readonly costs = new CostTracker()
  readonly watchdogMs: number
  readonly tabId: string
  private readonly api: MetaBlogApi
  private readonly llm: OpenAI | null
  private readonly skills = new Map<string, Skill>()
  private readonly router: IntentRouter
  /** The request, resume or task running now, and the tasks that finished. */
  private readonly slot: TaskSlot
  private initializing: Promise<void> | null = null
  private readonly resumable: ResumableTasks
  private readonly status: ModelStatus
  readonly conversation: Conversation
  readonly sessions: SessionsApi | null
  private readonly prompts: CustomPrompts

  constructor(options: AgentRuntimeOptions) {
    this.api = options.api
    this.llm = options.llm ?? null
    this.status = new ModelStatus(this.api, (model) => this.bus.emit('llm:modelChosen', { model }))
    this.state = options.state ?? createPlainChatState()
    this.bus = options.bus ?? createEventBus<MetaBlogEvents>()
    this.logger = options.logger ?? createLogger()
    this.router = new IntentRouter({
      classify: (text, context) =>
        this.llm && this.status.ready
          ? classifyWithModel(this.llm, text, context, this.slot.starting?.signal, { costs: this.costs, logger: this.logger, model: this.status.model ?? 'unknown' }, this.router.vocabulary)
          : undefined,
    })
    this.sessions = options.sessions ?? null
    this.prompts = new CustomPrompts(options.loadPrompts ?? null)
    const { state, logger, sessions, costs, status, api, llm, bus } = this
    this.conversation = new Conversation({
      state,
      logger,
      sessions,
      windows: options.contextWindows,
      usage: (taskId) => costs.task(taskId),
      model: () => status.model ?? undefined,
      restoreModel: (model) => status.choose(model),
    })
    for (const skill of options.skills ?? []) this.registerSkill(skill)
    if (options.tools?.length) this.registerSkill(createAgentSkill({ tools: options.tools, maxSteps: options.maxSteps, conversation: this.conversation.port(), toolSupport: status }))
    const tabId = (this.tabId = options.tabId ?? currentTabId())
    const watchdogMs = (this.watchdogMs = options.watchdogMs ?? DEFAULT_WATCHDOG_MS)
    const activeTaskId = () => this.slot.active?.taskId
    const ranHere = (taskId: string) => taskId === activeTaskId() || this.history.some((record) => record.taskId === taskId)
    this.resumable = new ResumableTasks({ api, state, logger, tabId, ranHere, activeTaskId })
    const approvalMode = options.approvalMode ?? 'ask'
    this.slot = new TaskSlot({ api, llm, status, state, bus, logger, costs, tabId, watchdogMs, approvalMode, refreshResumable: () => this.refreshResumable() })
    this.costs.subscribe(({ session }) => this.state.setSessionCost(session))
  }

  get currentState(): AgentState {
    return this.slot.machine.state
  }

  get modelStatus(): LlmStatusResponse | null {
    return this.status.current
  }

  get approvalMode(): ApprovalMode {
    return this.slot.approvals.mode
  }

  set approvalMode(mode: ApprovalMode) {
    this.slot.approvals.mode = mode
  }

  /** Finished tasks, newest last (at most HISTORY_LIMIT). */
  get history(): TaskRecord[] {
    return this.slot.history
  }

  /** Adds a skill: its commands, patterns and help join the router, /help and the slash menu. */
  registerSkill(skill: Skill): void {
    this.skills.set(skill.name, skill)
    // The built-in recipes stay understood (a request for one that is not registered gets an answer, not silence).
    const known = new Map(builtinSkills.map((builtin) => [builtin.name, builtin]))
    for (const [name, registered] of this.skills) known.set(name, registered)
    this.router.setSkills([...known.values()])
  }

  /** The slash menu: the commands of the skills this runtime understands. */
  get commands(): readonly SlashCommand[] {
    return slashMenu(this.router.vocabulary, this.skills.has(AGENT_SKILL), this.prompts)
  }

  /** Lists the prompt files again (at start and when one changes); what could not be used comes back as problems. */
  refreshPrompts(): Promise<PromptsResponse> {
    return this.prompts.refresh(builtinCommands(this.router.vocabulary))
  }

  setPrompts(response: PromptsResponse): PromptsResponse {
    return this.prompts.set(response, builtinCommands(this.router.vocabulary))
  }

  /** Loads the model status and the resumable tasks; safe to call any number of times. */
  initialize(): Promise<void> {
    this.initializing ??= (async () => {
      try {
        this.costs.setPrices((await this.status.load()).prices ?? {})
      } catch (error) {
        // Not remembered: the next request asks again (the dev server may have been restarting).
        this.initializing = null
        this.logger.log('agent.error', { where: 'llm-status', message: (error as Error).message }, 'warn')
      }
      await this.refreshResumable()
    })()
    return this.initializing
  }

  refreshResumable(): Promise<Checkpoint[]> {
    return this.resumable.refresh()
  }

  /** Runs a plan-mode answer as an ask-mode agent request. */
  runPlan(plan: string, context: RouteContext = {}): Promise<TaskRecord | null> {
    return this.processInput(planRequest(plan), context, { mode: 'ask' })
  }

  /** Understands the author's request and runs the matching skill (a recipe, or the agent's tool loop) to its end. */
  processInput(text: string, context: RouteContext = {}, options: { mode?: ApprovalMode } = {}): Promise<TaskRecord | null> {
    this.state.pushMessage({ id: messageId('user'), kind: 'user', text, selection: context.selectedText, file: context.currentFile })
    if (/^\/compact\s*$/i.test(text.trim())) return compactNow(this.commandHost())
    return handleRequest(this.requestHost(), text, context, options)
  }

  /** Pages for the @-mention picker: search results for a query, the first pages for none. */
  async findPages(query: string, signal?: AbortSignal): Promise<{ path: string; title: string }[]> {
    if (query.trim() === '') return (await this.api.listPages({ signal })).pages.slice(0, 8).map(({ path, title }) => ({ path, title }))
    return (await this.api.search(query, { signal })).results.slice(0, 8).map(({ path, title }) => ({ path, title }))
  }

  /** Continues a logged conversation: its memory comes back; the panel's messages for it are returned. */
  async continueSession(id: string): Promise<ChatMessage[]> {
    if (this.slot.busy) throw new Error(BUSY)
    return this.conversation.continueSession(id)
  }

  /** After a reload: the conversation's memory comes back from its log, the panel keeps its own messages. */
  restoreSession(id: string): Promise<void> {
    return this.conversation.restoreSession(id)
  }

  /** A new conversation: memory is emptied and a new session log starts. */
  newConversation(): void {
    this.conversation.restart()
    // The picked model belongs to the conversation: a new one starts on the configured model.
    this.status.choose(null)
  }

  /** The model the next requests name; null goes back to the configured one. */
  chooseModel(model: string | null): void {
    this.status.choose(model)
    this.conversation.logModel(this.status.model)
  }

  /** The models the picker offers: what the provider lists, or the configured one. */
  listModels(): Promise<LlmModelsResponse> {
    return this.api.llmModels()
  }

  /** The model requests name now: the picked one, else the configured one. */
  get model(): string | null {
    return this.status.model
  }

  /** Stops the request being understood, the resume being checked, or the running task at once: CANCELLED, locks released, checkpoint kept for a resume. */
  abort(taskId?: string): boolean {
    return this.slot.abort(taskId)
  }

  async previewResume(taskId: string): Promise<ResumePreview> {
    return previewResume(this.api, await findCheckpoint(this.api, this.skills, taskId), this.skills)
  }

  /** The one resume path (resume-flow.ts): a status union; a risky resume waits for `confirmed`; `done` settles when the task ends. */
  resume(taskId: string, options: { confirmed?: boolean } = {}): Promise<ResumeStatus> {
    const { api, state, skills, slot, resumable, status } = this
    return startResume({ api, state, skills, slot, resumable, status, initialize: () => this.initialize(), refreshResumable: () => this.refreshResumable(), showSetup: () => this.showSetup() }, taskId, options)
  }

  /** `resume` for callers that wait for the task: a refusal throws, a risky resume throws ResumeRefusedError. */
  async resumeTask(taskId: string, options: { confirmed?: boolean } = {}): Promise<TaskRecord | null> {
    const outcome = await this.resume(taskId, options)
    if (outcome.status === 'started') return outcome.done
    if (outcome.status === 'needs-confirmation') throw new ResumeRefusedError(outcome.preview)
    if (outcome.status === 'refused') throw new Error(outcome.message)
    return null
  }

  async abandonTask(taskId: string): Promise<void> {
    await this.api.deleteCheckpoint(taskId)
    await this.api.releaseLocks(taskId).catch(() => undefined)
    await this.refreshResumable()
  }

  /** The author's answer to an approval or conflict card. */
  decide(cardId: string, decision: ApprovalDecision | ConflictDecision): void {
    this.slot.approvals.decide(cardId, decision)
  }

  private showSetup(): void {
    this.state.pushMessage({ id: messageId('setup'), kind: 'setup', text: this.status.setupText })
  }

  private requestHost(): RequestHost {
    const { api, state, bus, logger, slot, router, conversation, prompts, skills, watchdogMs } = this
    const machine = slot.machine
    const agent = skills.has(AGENT_SKILL)
    const ready = { agentReady: () => agent && this.status.toolsUsable, modelReady: () => this.status.ready, extraHelp: () => extraHelp(agent, prompts) }
    return { api, state, bus, logger, machine, slot, router, conversation, prompts, skills, watchdogMs, mode: slot.approvals.mode, ...ready, initialize: () => this.initialize(), showSetup: () => this.showSetup() }
  }

  private commandHost() {
    const { llm, status, slot, state, costs, logger, conversation } = this
    return { llm, status, slot, state, costs, logger, conversation, initialize: () => this.initialize(), showSetup: () => this.showSetup() }
  }
}
