import type OpenAI from 'openai'
import type { Checkpoint, LlmStatusResponse } from '../../plugin/protocol'
import type { MetaBlogApi } from '../api/metablog-api'
import { createEventBus, type EventBus, type MetaBlogEvents } from '../event-bus'
import { createPlainChatState } from './chat-state'
import { CostTracker } from './cost-tracker'
import { classifyWithModel } from './classify'
import { IntentRouter, shouldAskUser, type RouteContext } from './intent-router'
import { createLogger, type Logger } from './logger'
import { previewResume, type ResumePreview } from './resume'
import { StateMachine, type AgentState } from './state-machine'
import { TaskRun, type TaskHost } from './task-run'
import type { ApprovalDecision, ChatMessage, ChatState, ConflictDecision, Proposal, Skill, TaskInputs } from './types'

export type ApprovalMode = 'ask' | 'auto-edit'

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
}

export interface TaskRecord {
  taskId: string
  skill: string
  title: string
  outcome: 'COMPLETED' | 'ERROR' | 'CANCELLED'
  finishedAt: number
}

export class ResumeRefusedError extends Error {
  readonly code = 'ERR_RESUME_NEEDS_CONFIRMATION'
  constructor(readonly preview: ResumePreview) {
    super(`Resuming "${preview.title}" is risky: ${preview.reasons.join('; ')}. Confirm to resume anyway.`)
  }
}

let messageCounter = 0
const messageId = (prefix: string) => `${prefix}-${Date.now().toString(36)}-${(messageCounter++).toString(36)}`

/** The agent behind the orb: understands a request, runs the skill for it, and can stop or resume it. */
export class AgentRuntime {
  readonly state: ChatState
  readonly bus: EventBus<MetaBlogEvents>
  readonly logger: Logger
  readonly costs = new CostTracker()
  readonly history: TaskRecord[] = []
  approvalMode: ApprovalMode
  private readonly api: MetaBlogApi
  private readonly llm: OpenAI | null
  private readonly skills = new Map<string, Skill>()
  private readonly machine: StateMachine
  private readonly router: IntentRouter
  private readonly decisions = new Map<string, (decision: ApprovalDecision | ConflictDecision) => void>()
  private active: TaskRun | null = null
  private initializing: Promise<void> | null = null
  private status: LlmStatusResponse | null = null

  constructor(options: AgentRuntimeOptions) {
    this.api = options.api
    this.llm = options.llm ?? null
    this.state = options.state ?? createPlainChatState()
    this.bus = options.bus ?? createEventBus<MetaBlogEvents>()
    this.logger = options.logger ?? createLogger()
    this.approvalMode = options.approvalMode ?? 'ask'
    for (const skill of options.skills ?? []) this.registerSkill(skill)
    this.machine = new StateMachine({
      watchdogMs: options.watchdogMs,
      onStuck: () => this.active?.controller.abort(new DOMException('The task stopped making progress.', 'TimeoutError')),
    })
    this.machine.subscribe((change) => {
      const taskId = this.active?.taskId ?? null
      this.state.setStatus(change.to, taskId)
      this.bus.emit('agent:stateChanged', { taskId, state: change.to, reason: change.reason })
      this.logger.log('agent.state.changed', { taskId, from: change.from, to: change.to, reason: change.reason })
    })
    this.router = new IntentRouter({
      classify: (text, context) => (this.llm && this.status?.configured ? classifyWithModel(this.llm, text, context) : undefined),
    })
    this.costs.subscribe(({ session }) => this.state.setSessionCost(session))
  }

  get currentState(): AgentState {
    return this.machine.state
  }

  get modelStatus(): LlmStatusResponse | null {
    return this.status
  }

  registerSkill(skill: Skill): void {
    this.skills.set(skill.name, skill)
  }

  /** Loads the model status and the resumable tasks; safe to call any number of times. */
  initialize(): Promise<void> {
    this.initializing ??= (async () => {
      try {
        this.status = await this.api.llmStatus()
        this.costs.setPrices(this.status.prices ?? {})
      } catch (error) {
        this.logger.log('agent.error', { where: 'llm-status', message: (error as Error).message }, 'warn')
      }
      await this.refreshResumable()
    })()
    return this.initializing
  }

  async refreshResumable(): Promise<Checkpoint[]> {
    try {
      const { checkpoints } = await this.api.listCheckpoints()
      const resumable = checkpoints.filter((checkpoint) => checkpoint.taskId !== this.active?.taskId)
      this.state.setResumable(
        resumable.map((checkpoint) => ({
          taskId: checkpoint.taskId,
          skill: checkpoint.skill,
          title: checkpoint.title,
          finishedSteps: checkpoint.steps.length,
          totalSteps: checkpoint.totalSteps,
          updatedAt: checkpoint.updatedAt,
        })),
      )
      return resumable
    } catch (error) {
      this.logger.log('agent.error', { where: 'checkpoints', message: (error as Error).message }, 'warn')
      return []
    }
  }

  /** Understands the author's request and runs the matching skill to its end. */
  async processInput(text: string, context: RouteContext = {}): Promise<TaskRecord | null> {
    await this.initialize()
    this.state.pushMessage({ id: messageId('user'), kind: 'user', text, selection: context.selectedText, file: context.currentFile })
    this.logger.log('agent.input.received', { text, currentFile: context.currentFile, selectedText: context.selectedText })
    if (this.active) {
      this.note('A task is still running. Stop it first, or wait for it to finish.')
      return null
    }
    this.machine.transition('UNDERSTANDING')
    const parse = await this.router.route(text, context)
    this.logger.log('agent.intent.parsed', { intent: parse.intent, confidence: parse.confidence, source: parse.source })
    const skill = [...this.skills.values()].find((candidate) => candidate.intents.includes(parse.intent))
    if (parse.intent === 'help' || !skill || shouldAskUser(parse)) {
      this.note(parse.intent === 'help' ? HELP : `I'm not sure what you'd like me to do. ${HELP}`)
      this.machine.transition('IDLE')
      return null
    }
    if (skill.needsModel && !this.status?.configured) {
      this.state.pushMessage({ id: messageId('setup'), kind: 'setup', text: this.status?.instructions ?? NO_MODEL })
      this.machine.transition('IDLE')
      return null
    }
    const inputs: TaskInputs = { text, intent: parse.intent, params: parse.params, currentFile: context.currentFile, selectedText: context.selectedText }
    return this.runTask(skill, inputs)
  }

  /** Stops the running task at once: CANCELLED, locks released, checkpoint kept for a resume. */
  abort(taskId?: string): boolean {
    const run = this.active
    if (!run || (taskId && run.taskId !== taskId)) return false
    run.controller.abort(new DOMException('Stopped by the author.', 'AbortError'))
    if (this.machine.can('CANCELLED')) this.machine.transition('CANCELLED', 'stopped')
    this.state.setProgress(null)
    void this.api.releaseLocks(run.taskId).catch(() => undefined)
    this.logger.log('agent.task.cancelled', { taskId: run.taskId })
    return true
  }

  async previewResume(taskId: string): Promise<ResumePreview> {
    return previewResume(this.api, await this.findCheckpoint(taskId), this.skills)
  }

  /** Resumes an interrupted task at its first unfinished step; a risky resume needs `confirmed`. */
  async resumeTask(taskId: string, options: { confirmed?: boolean } = {}): Promise<TaskRecord | null> {
    await this.initialize()
    if (this.active) throw new Error('A task is still running. Stop it first.')
    const checkpoint = await this.findCheckpoint(taskId)
    const preview = await previewResume(this.api, checkpoint, this.skills)
    if (preview.risk === 'high' && !options.confirmed) throw new ResumeRefusedError(preview)
    const skill = this.skills.get(checkpoint.skill)!
    return this.runTask(skill, checkpoint.inputs as unknown as TaskInputs, checkpoint)
  }

  async abandonTask(taskId: string): Promise<void> {
    await this.api.deleteCheckpoint(taskId)
    await this.api.releaseLocks(taskId).catch(() => undefined)
    await this.refreshResumable()
  }

  /** The author's answer to an approval or conflict card. */
  decide(messageId: string, decision: ApprovalDecision | ConflictDecision): void {
    this.decisions.get(messageId)?.(decision)
  }

  private async findCheckpoint(taskId: string): Promise<Checkpoint> {
    const { checkpoints } = await this.api.listCheckpoints()
    const checkpoint = checkpoints.find((candidate) => candidate.taskId === taskId)
    if (!checkpoint || !this.skills.has(checkpoint.skill)) throw new Error(`There is no resumable task ${taskId}.`)
    return checkpoint
  }

  private async runTask(skill: Skill, inputs: TaskInputs, checkpoint?: Checkpoint): Promise<TaskRecord> {
    const run = new TaskRun(this.host(), skill, inputs, checkpoint)
    this.active = run
    if (this.machine.state === 'UNDERSTANDING') this.machine.transition('PLANNING')
    this.machine.transition('EXECUTING', checkpoint ? 'resume' : undefined)
    this.bus.emit('agent:taskStarted', { taskId: run.taskId, skill: skill.name, title: run.title })
    this.logger.log('agent.skill.started', { taskId: run.taskId, skill: skill.name, resumed: Boolean(checkpoint) })
    let outcome: TaskRecord['outcome']
    try {
      await run.run()
      this.machine.transition('COMPLETED')
      outcome = 'COMPLETED'
      await this.api.deleteCheckpoint(run.taskId).catch(() => undefined)
      this.bus.emit('agent:taskCompleted', { taskId: run.taskId, skill: skill.name, path: run.path })
      this.logger.log('agent.task.completed', { taskId: run.taskId, skill: skill.name, ...this.costs.task(run.taskId) })
    } catch (error) {
      outcome = run.signal.aborted && this.machine.state === 'CANCELLED' ? 'CANCELLED' : 'ERROR'
      if (outcome === 'ERROR') this.fail(run, error)
      else this.note('Stopped. The task is saved: you can resume it later.', run.taskId)
    } finally {
      this.active = null
      this.state.setProgress(null)
      await this.api.releaseLocks(run.taskId).catch(() => undefined)
    }
    const record: TaskRecord = { taskId: run.taskId, skill: skill.name, title: run.title, outcome, finishedAt: Date.now() }
    this.history.push(record)
    await this.refreshResumable()
    return record
  }

  private fail(run: TaskRun, error: unknown): void {
    const reason = run.signal.aborted ? run.signal.reason : error
    const code = (reason as { code?: string })?.code ?? ((reason as Error)?.name === 'TimeoutError' ? 'ERR_WATCHDOG' : 'ERR_TASK')
    const message = (reason as Error)?.message ?? String(reason)
    if (this.machine.can('ERROR')) this.machine.transition('ERROR', code)
    void run.saveCheckpoint()
    const resumable = run.finishedCount > 0 ? ' The finished steps are saved: resume to continue from there.' : ''
    this.state.pushMessage({ id: messageId('error'), kind: 'error', taskId: run.taskId, code, message: `${message}${resumable}`, retryText: run.inputs.text })
    this.bus.emit('agent:taskFailed', { taskId: run.taskId, skill: run.skill.name, error: { code, message } })
    this.logger.log('agent.error', { taskId: run.taskId, code, message })
  }

  private note(text: string, taskId?: string): void {
    this.state.pushMessage({ id: messageId('note'), kind: 'assistant', taskId, text, streaming: false })
  }

  private host(): TaskHost {
    return {
      api: this.api,
      llm: this.status?.configured ? this.llm : null,
      model: this.status?.model ?? null,
      costs: this.costs,
      logger: this.logger,
      state: this.state,
      bus: this.bus,
      touch: () => this.machine.touch(),
      approve: (taskId, proposal, signal) => this.waitFor<ApprovalDecision>(taskId, signal, proposal),
      resolveConflict: (taskId, path, summary, signal) => this.waitFor<ConflictDecision>(taskId, signal, undefined, { path, summary }),
    }
  }

  /** Shows an approval or conflict card and waits for the author (auto-edit accepts edits at once). */
  private waitFor<T extends ApprovalDecision | ConflictDecision>(
    taskId: string,
    signal: AbortSignal,
    proposal?: Proposal,
    conflict?: { path: string; summary: string },
  ): Promise<T> {
    const id = messageId(proposal ? 'approval' : 'conflict')
    if (proposal && this.approvalMode === 'auto-edit' && proposal.kind !== 'delete') {
      this.state.pushMessage({ id, kind: 'approval', taskId, proposal, status: 'accepted' })
      return Promise.resolve({ action: 'accept' } as T)
    }
    const card: ChatMessage = proposal
      ? { id, kind: 'approval', taskId, proposal, status: 'pending' }
      : { id, kind: 'conflict', taskId, path: conflict!.path, summary: conflict!.summary, status: 'pending' }
    this.state.pushMessage(card)
    this.machine.transition('WAITING_INPUT')
    return new Promise<T>((resolve, reject) => {
      const settle = (decision: ApprovalDecision | ConflictDecision) => {
        this.decisions.delete(id)
        signal.removeEventListener('abort', onAbort)
        if (typeof decision === 'string') this.state.updateMessage(id, { status: decision })
        else this.state.updateMessage(id, { status: decision.action === 'accept' ? 'accepted' : 'rejected' })
        if (this.machine.state === 'WAITING_INPUT') this.machine.transition('EXECUTING')
        resolve(decision as T)
      }
      const onAbort = () => {
        this.decisions.delete(id)
        reject(signal.reason)
      }
      signal.addEventListener('abort', onAbort, { once: true })
      this.decisions.set(id, settle)
    })
  }
}

const HELP = [
  'Try one of these:',
  '- **/write** a topic — draft a new post (or "write a post about …", "写一篇关于…的文章")',
  '- **/edit** an instruction — rewrite the text you selected on the page',
  '- **/summarize** — summarize this page (or a named one)',
  '- **/research** a question — answer from your own posts, with links',
  '- **/graph** — backlinks, unresolved links and link suggestions for this page',
  '- **/explain** — explain the selected code or this page\'s code blocks',
  '- **/ask** a question — answer it from your blog',
  '- **/delete** a page — delete a post (after you confirm)',
].join('\n')

const NO_MODEL =
  'No model is configured. Set OPENAI_API_KEY (and OPENAI_BASE_URL and METABLOG_MODEL for other providers) in a .env file beside your site, then restart `vitepress dev`.'
