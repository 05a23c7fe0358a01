import type OpenAI from 'openai'
import type { Checkpoint, LlmModelsResponse, LlmStatusResponse } from '../../plugin/protocol'
import type { MetaBlogApi } from '../api/metablog-api'
import { createEventBus, type EventBus, type MetaBlogEvents } from '../event-bus'
import { builtinSkills } from '../skills'
import { AGENT_SKILL, createAgentSkill, planRequest } from '../skills/agent'
import { Approvals, type ApprovalMode } from './approvals'
import { createPlainChatState } from './chat-state'
import { startHeartbeat } from './checkpoint-saver'
import { currentTabId } from './tab-id'
import { CostTracker } from './cost-tracker'
import { classifyWithModel } from './classify'
import type { Tool } from './define-tool'
import { describeFailure } from './failure'
import type { SlashCommand } from './vocabulary'
import { IntentRouter, type RouteContext } from './intent-router'
import { AGENT_PARSE, replyInstead, routeRequest } from './route-request'
import { Conversation } from './conversation/conversation'
import { createModelPort } from './model-port'
import { attachmentNote, readAttachments } from './conversation/mentions'
import type { SessionsApi } from '../api/sessions'
import type { PromptsResponse } from '../api/prompts'
import { CustomPrompts, matchPrompt, promptCommand } from './conversation/custom-prompts'
import { createLogger, type Logger } from './logger'
import { BUSY, STOPPED, messageId, pushNote } from './messages'
import { ModelStatus } from './model-status'
import { ResumableTasks } from './resumable-tasks'
import { checkpointProblem, findCheckpoint, previewResume, ResumeRefusedError, type ResumePreview, type ResumeStatus } from './resume'
import { DEFAULT_WATCHDOG_MS, FINAL_STATES, StateMachine, type AgentState } from './state-machine'
import { runToOutcome, showFailure } from './task-outcome'
import { TaskRun, type TaskHost } from './task-run'
import type { ApprovalDecision, ChatMessage, ChatState, ConflictDecision, Skill, TaskInputs, TaskRecord } from './types'

export type { ApprovalMode } from './approvals'
export { ResumeRefusedError } from './resume'
export type { ResumeStatus } from './resume'
export type { TaskRecord } from './types'

/** Finished tasks remembered in `history`, newest last. */
export const HISTORY_LIMIT = 100

export interface AgentRuntimeOptions {
  api: MetaBlogApi
  /** The OpenAI client pointed at the gateway; null when the page has none. */
  llm?: OpenAI | null
  skills?: readonly Skill[]
  state?: ChatState
  bus?: EventBus<MetaBlogEvents>
  logger?: Logger
  approvalMode?: ApprovalMode
  watchdogMs?: number
  /** This browser tab's id (default: kept in sessionStorage, so it survives reloads). */
  tabId?: string
  /** The agent's tools: with them, free text that no recipe claims goes to the tool loop. */
  tools?: readonly Tool[]
  /** Model turns one agent request may take (default 10). */
  maxSteps?: number
  /** Context windows by model name (or "*"), in tokens, over the built-in table. */
  contextWindows?: Readonly<Record<string, number>>
  /** The session-log routes: every turn is appended there. */
  sessions?: SessionsApi | null
  /** Lists the author's prompt files (GET /prompts). */
  loadPrompts?: (signal?: AbortSignal) => Promise<PromptsResponse>
}

/** The command that compacts the conversation on demand. */
export const COMPACT_COMMAND: SlashCommand = { name: 'compact', description: 'Summarise the older turns of this conversation to free room' }


/** The agent behind the orb: understands a request, runs the skill for it, and can stop or resume it. */
export class AgentRuntime {
  readonly state: ChatState
  readonly bus: EventBus<MetaBlogEvents>
  readonly logger: Logger
  readonly costs = new CostTracker()
  readonly history: TaskRecord[] = []
  readonly watchdogMs: number
  readonly tabId: string
  private readonly api: MetaBlogApi
  private readonly llm: OpenAI | null
  private readonly skills = new Map<string, Skill>()
  private readonly machine: StateMachine
  private readonly router: IntentRouter
  private readonly approvals: Approvals
  private active: TaskRun | null = null
  /** A request being understood or a resume being checked, before its task starts: Stop cancels it. */
  private starting: AbortController | null = null
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
          ? classifyWithModel(this.llm, text, context, this.starting?.signal, { costs: this.costs, logger: this.logger, model: this.status.model ?? 'unknown' }, this.router.vocabulary)
          : undefined,
    })
    this.sessions = options.sessions ?? null
    this.prompts = new CustomPrompts(options.loadPrompts ?? null)
    this.conversation = new Conversation({
      state: this.state,
      logger: this.logger,
      windows: options.contextWindows,
      sessions: this.sessions,
      usage: (taskId) => this.costs.task(taskId),
      model: () => this.status.model ?? undefined,
      restoreModel: (model) => this.status.choose(model),
    })
    for (const skill of options.skills ?? []) this.registerSkill(skill)
    if (options.tools?.length) this.registerSkill(createAgentSkill({ tools: options.tools, maxSteps: options.maxSteps, conversation: this.conversation.port(), toolSupport: this.status }))
    this.watchdogMs = options.watchdogMs ?? DEFAULT_WATCHDOG_MS
    this.tabId = options.tabId ?? currentTabId()
    this.resumable = new ResumableTasks({
      api: this.api,
      state: this.state,
      logger: this.logger,
      tabId: this.tabId,
      ranHere: (taskId) => taskId === this.active?.taskId || this.history.some((record) => record.taskId === taskId),
      activeTaskId: () => this.active?.taskId,
    })
    this.machine = new StateMachine({
      watchdogMs: this.watchdogMs,
      onStuck: () => {
        const reason = new DOMException('The task stopped making progress.', 'TimeoutError')
        this.starting?.abort(reason)
        this.active?.controller.abort(reason)
      },
    })
    this.machine.subscribe((change) => {
      const taskId = this.active?.taskId ?? null
      this.state.setStatus(change.to, taskId)
      this.bus.emit('agent:stateChanged', { taskId, state: change.to, reason: change.reason })
      this.logger.log('agent.state.changed', { taskId, from: change.from, to: change.to, reason: change.reason })
    })
    this.approvals = new Approvals(this.state, this.machine, options.approvalMode ?? 'ask')
    this.costs.subscribe(({ session }) => this.state.setSessionCost(session))
  }

  get currentState(): AgentState {
    return this.machine.state
  }

  get modelStatus(): LlmStatusResponse | null {
    return this.status.current
  }

  get approvalMode(): ApprovalMode {
    return this.approvals.mode
  }

  set approvalMode(mode: ApprovalMode) {
    this.approvals.mode = mode
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
    const menu = this.router.vocabulary.menu
    if (!this.skills.has(AGENT_SKILL)) return menu
    return [...menu.slice(0, -1), COMPACT_COMMAND, ...this.prompts.list.map(promptCommand), ...menu.slice(-1)]
  }

  /** Lists the prompt files again (at start and when one changes); what could not be used comes back as problems. */
  refreshPrompts(): Promise<PromptsResponse> {
    return this.prompts.refresh(this.builtinCommands())
  }

  setPrompts(response: PromptsResponse): PromptsResponse {
    return this.prompts.set(response, this.builtinCommands())
  }

  /** /help beyond the skills: /compact and the author's prompts. */
  private extraHelp(): string {
    if (!this.skills.has(AGENT_SKILL)) return ''
    return [`- \`/${COMPACT_COMMAND.name}\` — ${COMPACT_COMMAND.description.toLowerCase()}`, this.prompts.help].filter(Boolean).join('\n\n')
  }

  private builtinCommands(): string[] {
    return [...this.router.vocabulary.menu.map((command) => command.name), COMPACT_COMMAND.name]
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

  /** Whether free text goes to the tool loop: there are tools and a model. */
  private get agentReady(): boolean {
    return this.skills.has(AGENT_SKILL) && this.status.toolsUsable
  }

  /** Runs a plan-mode answer as an ask-mode agent request. */
  runPlan(plan: string, context: RouteContext = {}): Promise<TaskRecord | null> {
    return this.processInput(planRequest(plan), context, { mode: 'ask' })
  }

  /** Understands the author's request and runs the matching skill to its end. */
  async processInput(text: string, context: RouteContext = {}, options: { mode?: ApprovalMode } = {}): Promise<TaskRecord | null> {
    this.state.pushMessage({ id: messageId('user'), kind: 'user', text, selection: context.selectedText, file: context.currentFile })
    if (/^\/compact\s*$/i.test(text.trim())) return this.compactNow()
    this.logger.log('agent.input.received', { text, currentFile: context.currentFile, selectedText: context.selectedText })
    // Checked before the first await, so two quick sends cannot both start a task.
    if (this.active || this.starting) {
      pushNote(this.state, BUSY)
      return null
    }
    const understanding = (this.starting = new AbortController())
    const custom = matchPrompt(text, this.prompts.list, context)
    const mode = custom?.prompt.mode ?? options.mode ?? this.approvals.mode
    const request = custom?.text ?? text
    let parse
    try {
      this.machine.transition('UNDERSTANDING')
      await this.initialize()
      await this.conversation.restoring
      this.conversation.request(request, { currentFile: context.currentFile, mentions: context.mentions, mode })
      parse = custom ? AGENT_PARSE : await routeRequest(this.router, text, context, this.agentReady)
    } finally {
      this.starting = null
    }
    // Stopped, or stuck, while the request was being understood: a late answer starts nothing.
    if (understanding.signal.aborted || this.machine.state !== 'UNDERSTANDING') {
      if (this.machine.state === 'ERROR') showFailure(this, describeFailure(understanding.signal.reason, this.watchdogMs), text)
      return null
    }
    this.logger.log('agent.intent.parsed', { intent: parse.intent, confidence: parse.confidence, source: parse.source })
    const skill = [...this.skills.values()].find((candidate) => candidate.intents.includes(parse.intent))
    const reply = replyInstead(parse, skill, this.router, this.status.ready, this.extraHelp())
    if (reply !== null) {
      if (reply === 'setup') this.showSetup()
      else pushNote(this.state, reply.note)
      this.machine.transition('IDLE')
      return null
    }
    const inputs: TaskInputs = { text: request, intent: parse.intent, params: parse.params, currentFile: context.currentFile, selectedText: context.selectedText }
    const agent = parse.intent === 'agent'
    const attachments = agent && context.mentions?.length ? await readAttachments(this.api, context.mentions) : []
    if (attachments.length) pushNote(this.state, attachmentNote(attachments))
    // Recipes are part of the conversation too: the pages they wrote are what "it" means next.
    const written: string[] = []
    const unsubscribe = this.bus.on('file:written', ({ path }) => written.push(path))
    let record: TaskRecord
    try {
      const allowed = custom?.prompt.tools ? { tools: custom.prompt.tools } : {}
      record = await this.runTask(skill!, agent ? { ...inputs, mode, history: this.conversation.history(), ...allowed, ...(attachments.length ? { attachments } : {}) } : inputs)
    } finally {
      unsubscribe()
    }
    this.conversation.remember({ request, skill: skill!.name, taskId: record.taskId, written, mentions: attachments.map((page) => page.path) }, this.state.messages)
    return record
  }

  /** Pages for the @-mention picker: search results for a query, the first pages for none. */
  async findPages(query: string, signal?: AbortSignal): Promise<{ path: string; title: string }[]> {
    if (query.trim() === '') return (await this.api.listPages({ signal })).pages.slice(0, 8).map(({ path, title }) => ({ path, title }))
    return (await this.api.search(query, { signal })).results.slice(0, 8).map(({ path, title }) => ({ path, title }))
  }

  /** Continues a logged conversation: its memory comes back; the panel's messages for it are returned. */
  async continueSession(id: string): Promise<ChatMessage[]> {
    if (this.active || this.starting) throw new Error(BUSY)
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

  /** `/compact`: summarises the older turns now, outside any task. */
  private async compactNow(): Promise<null> {
    if (this.active || this.starting) {
      pushNote(this.state, BUSY)
      return null
    }
    await this.initialize()
    const model = this.status.model
    if (!this.llm || !this.status.ready || !model) {
      this.showSetup()
      return null
    }
    const controller = (this.starting = new AbortController())
    try {
      const port = createModelPort({ client: this.llm, model, taskId: messageId('compact'), signal: controller.signal, costs: this.costs, logger: this.logger })
      const compaction = await this.conversation.compact(port, 'command')
      if (!compaction) pushNote(this.state, 'Nothing to compact yet: the conversation is short enough to keep verbatim.')
    } finally {
      this.starting = null
    }
    return null
  }

  /** Stops the request being understood, the resume being checked, or the running task at once: CANCELLED, locks released, checkpoint kept for a resume. */
  abort(taskId?: string): boolean {
    const run = this.active
    // Before its task starts, a request or a resume stops through its own controller (the caller may still show the last task's id).
    const controller = run ? run.controller : this.starting
    if (!controller || (run && taskId && run.taskId !== taskId)) return false
    controller.abort(new DOMException('Stopped by the author.', 'AbortError'))
    if (this.machine.can('CANCELLED')) this.machine.transition('CANCELLED', 'stopped')
    this.state.setProgress(null)
    if (run) void this.api.releaseLocks(run.taskId).catch(() => undefined)
    this.logger.log('agent.task.cancelled', { taskId: run?.taskId ?? null })
    return true
  }

  async previewResume(taskId: string): Promise<ResumePreview> {
    return previewResume(this.api, await findCheckpoint(this.api, this.skills, taskId), this.skills)
  }

  /**
   * The one resume path: checks the checkpoint once (found, same skill version, valid inputs, not
   * running in another tab, its risk), then starts the task at its first unfinished step. A risky
   * resume waits for `confirmed`. The task runs on; `done` settles when it ends.
   */
  async resume(taskId: string, options: { confirmed?: boolean } = {}): Promise<ResumeStatus> {
    // Checked before the first await, so Stop during the checks below cancels the resume.
    if (this.active || this.starting) return { status: 'refused', message: BUSY }
    const starting = (this.starting = new AbortController())
    let checked: { checkpoint: Checkpoint; preview: ResumePreview }
    try {
      await this.initialize()
      const checkpoint = await findCheckpoint(this.api, this.skills, taskId)
      checked = { checkpoint, preview: await previewResume(this.api, checkpoint, this.skills) }
    } catch (error) {
      return { status: 'refused', message: (error as Error).message }
    } finally {
      this.starting = null
    }
    const { checkpoint, preview } = checked
    if (starting.signal.aborted) {
      pushNote(this.state, STOPPED, taskId)
      await this.refreshResumable()
      return { status: 'stopped' }
    }
    if (this.resumable.runningElsewhere(checkpoint)) {
      return { status: 'refused', message: `"${checkpoint.title}" is still running in another tab. Stop it there; if that tab was closed, resume it again in a few seconds.` }
    }
    const skill = this.skills.get(checkpoint.skill)!
    const problem = checkpointProblem(checkpoint, skill)
    if (problem) return { status: 'refused', message: problem }
    if (preview.risk === 'high' && !options.confirmed) return { status: 'needs-confirmation', preview }
    if (skill.needsModel && !this.status.ready) {
      this.showSetup()
      await this.refreshResumable()
      return { status: 'needs-model' }
    }
    pushNote(this.state, `Resuming **${preview.title}** at “${preview.pendingSteps[0] ?? 'the last step'}”.`, taskId)
    return { status: 'started', preview, done: this.runTask(skill, checkpoint.inputs as unknown as TaskInputs, checkpoint) }
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
    this.approvals.decide(cardId, decision)
  }

  private async runTask(skill: Skill, inputs: TaskInputs, checkpoint?: Checkpoint): Promise<TaskRecord> {
    const run = new TaskRun(this.host(), skill, inputs, checkpoint)
    this.active = run
    const { api, machine, bus, logger, costs, state, watchdogMs } = this
    const heartbeat = startHeartbeat(() => void run.saveCheckpoint(), () => FINAL_STATES.includes(machine.state))
    let heartbeats = 0
    let outcome: TaskRecord['outcome']
    try {
      outcome = await runToOutcome({ api, machine, bus, logger, costs, state, watchdogMs }, run, Boolean(checkpoint))
    } finally {
      heartbeats = heartbeat.stop()
      this.active = null
      this.state.setProgress(null)
      // Again at the end: a lock renewal in flight when the task was stopped may have landed after abort() released.
      await this.api.releaseLocks(run.taskId).catch(() => undefined)
    }
    // A heartbeat sent as the task completed may have landed after its checkpoint was deleted.
    if (outcome === 'COMPLETED' && heartbeats > 0) await run.discardCheckpoint()
    const record: TaskRecord = { taskId: run.taskId, skill: skill.name, title: run.title, outcome, finishedAt: Date.now() }
    this.history.splice(0, this.history.push(record) - HISTORY_LIMIT)
    await this.refreshResumable()
    return record
  }

  private showSetup(): void {
    this.state.pushMessage({ id: messageId('setup'), kind: 'setup', text: this.status.setupText })
  }

  private host(): TaskHost {
    return {
      api: this.api,
      llm: this.status.ready ? this.llm : null,
      model: this.status.model ?? null,
      costs: this.costs,
      logger: this.logger,
      state: this.state,
      bus: this.bus,
      tabId: this.tabId,
      touch: () => this.machine.touch(),
      approve: (taskId, proposal, signal, mode) => this.approvals.approve(taskId, proposal, signal, mode),
      resolveConflict: (taskId, path, summary, signal) => this.approvals.resolveConflict(taskId, path, summary, signal),
    }
  }
}
