// One task at a time: the request being understood or resumed (`starting`), the task running
// (`active`), its state machine and watchdog, its approvals, how it runs to its outcome, how Stop
// ends it, and the tasks that finished.
import type OpenAI from 'openai'
import type { Checkpoint } from '../../plugin/protocol'
import type { MetaBlogApi } from '../api/metablog-api'
import type { EventBus, MetaBlogEvents } from '../event-bus'
import { Approvals, type ApprovalMode } from './approvals'
import { startHeartbeat } from './checkpoint-saver'
import type { CostTracker } from './cost-tracker'
import type { Logger } from './logger'
import type { ModelStatus } from './model-status'
import { FINAL_STATES, StateMachine } from './state-machine'
import { runToOutcome } from './task-outcome'
import { TaskRun, type TaskHost } from './task-run'
import type { ChatState, Skill, TaskInputs, TaskRecord } from './types'

/** Finished tasks remembered in `history`, newest last. */
export const HISTORY_LIMIT = 100

export interface TaskSlotOptions {
  api: MetaBlogApi
  llm: OpenAI | null
  status: ModelStatus
  state: ChatState
  bus: EventBus<MetaBlogEvents>
  logger: Logger
  costs: CostTracker
  tabId: string
  approvalMode: ApprovalMode
  watchdogMs: number
  /** Tells the UI which tasks can resume, after each task. */
  refreshResumable(): Promise<unknown>
}

export class TaskSlot {
  active: TaskRun | null = null
  /** A request being understood or a resume being checked, before its task starts: Stop cancels it. */
  starting: AbortController | null = null
  readonly history: TaskRecord[] = []
  readonly machine: StateMachine
  readonly approvals: Approvals

  constructor(private readonly options: TaskSlotOptions) {
    const { state, bus, logger } = options
    this.machine = new StateMachine({
      watchdogMs: options.watchdogMs,
      onStuck: () => {
        const reason = new DOMException('The task stopped making progress.', 'TimeoutError')
        this.starting?.abort(reason)
        this.active?.controller.abort(reason)
      },
    })
    this.machine.subscribe((change) => {
      const taskId = this.active?.taskId ?? null
      state.setStatus(change.to, taskId)
      bus.emit('agent:stateChanged', { taskId, state: change.to, reason: change.reason })
      logger.log('agent.state.changed', { taskId, from: change.from, to: change.to, reason: change.reason })
    })
    this.approvals = new Approvals(state, this.machine, options.approvalMode)
  }

  /** Whether a request, a resume or a task holds the slot (checked before any await, so two sends cannot both start). */
  get busy(): boolean {
    return this.active !== null || this.starting !== null
  }

  /** Runs `work` as the request being understood; Stop aborts the controller it gets. */
  async starts<T>(work: (controller: AbortController) => Promise<T>): Promise<T> {
    const controller = (this.starting = new AbortController())
    try {
      return await work(controller)
    } finally {
      this.starting = null
    }
  }

  /** Stops the request being understood, the resume being checked, or the running task at once: CANCELLED, locks released, checkpoint kept for a resume. */
  abort(taskId?: string): boolean {
    const { api, state, logger } = this.options
    const { machine } = this
    const run = this.active
    // Before its task starts, a request or a resume stops through its own controller (the caller may still show the last task's id).
    const controller = run ? run.controller : this.starting
    if (!controller || (run && taskId && run.taskId !== taskId)) return false
    controller.abort(new DOMException('Stopped by the author.', 'AbortError'))
    if (machine.can('CANCELLED')) machine.transition('CANCELLED', 'stopped')
    state.setProgress(null)
    if (run) void api.releaseLocks(run.taskId).catch(() => undefined)
    logger.log('agent.task.cancelled', { taskId: run?.taskId ?? null })
    return true
  }

  /** Runs a skill from its first unfinished step to its outcome, with a heartbeat, and remembers it. */
  async run(skill: Skill, inputs: TaskInputs, checkpoint?: Checkpoint): Promise<TaskRecord> {
    const run = new TaskRun(this.host(), skill, inputs, checkpoint)
    this.active = run
    const { api, bus, logger, costs, state, watchdogMs } = this.options
    const { machine } = this
    const heartbeat = startHeartbeat(() => void run.saveCheckpoint(), () => FINAL_STATES.includes(machine.state))
    let heartbeats = 0
    let outcome: TaskRecord['outcome']
    try {
      outcome = await runToOutcome({ api, machine, bus, logger, costs, state, watchdogMs }, run, Boolean(checkpoint))
    } finally {
      heartbeats = heartbeat.stop()
      this.active = null
      state.setProgress(null)
      // Again at the end: a lock renewal in flight when the task was stopped may have landed after abort() released.
      await api.releaseLocks(run.taskId).catch(() => undefined)
    }
    // A heartbeat sent as the task completed may have landed after its checkpoint was deleted.
    if (outcome === 'COMPLETED' && heartbeats > 0) await run.discardCheckpoint()
    const record: TaskRecord = { taskId: run.taskId, skill: skill.name, title: run.title, outcome, finishedAt: Date.now() }
    this.history.splice(0, this.history.push(record) - HISTORY_LIMIT)
    await this.options.refreshResumable()
    return record
  }

  private host(): TaskHost {
    const { api, llm, status, costs, logger, state, bus, tabId } = this.options
    const { machine, approvals } = this
    return {
      api,
      llm: status.ready ? llm : null,
      model: status.model ?? null,
      costs,
      logger,
      state,
      bus,
      tabId,
      touch: () => machine.touch(),
      approve: (taskId, proposal, signal, mode) => approvals.approve(taskId, proposal, signal, mode),
      resolveConflict: (taskId, path, summary, signal) => approvals.resolveConflict(taskId, path, summary, signal),
    }
  }
}
