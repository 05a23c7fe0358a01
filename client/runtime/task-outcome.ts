// A task run from its first step to its end, and how the end is reported: state, bus, log, checkpoint.
import type { MetaBlogApi } from '../api/metablog-api'
import type { EventBus, MetaBlogEvents } from '../event-bus'
import type { CostTracker } from './cost-tracker'
import { describeFailure, resumeHint, type Failure } from './failure'
import type { Logger } from './logger'
import { STOPPED, messageId, pushNote } from './messages'
import type { StateMachine } from './state-machine'
import type { TaskRun } from './task-run'
import type { ChatState, TaskRecord } from './types'

export interface OutcomeHost {
  api: MetaBlogApi
  machine: StateMachine
  bus: EventBus<MetaBlogEvents>
  logger: Logger
  costs: CostTracker
  state: ChatState
  watchdogMs: number
}

export function showFailure(host: Pick<OutcomeHost, 'state' | 'logger'>, failure: Failure, retryText: string, taskId?: string): void {
  host.state.pushMessage({ id: messageId('error'), kind: 'error', taskId, code: failure.code, message: failure.message, retryText })
  host.logger.log('agent.error', { taskId, code: failure.code, message: failure.message })
}

async function fail(host: OutcomeHost, run: TaskRun, error: unknown): Promise<void> {
  const failure = describeFailure(run.signal.aborted ? run.signal.reason : error, host.watchdogMs)
  if (host.machine.can('ERROR')) host.machine.transition('ERROR', failure.code)
  // Worth resuming only with a finished step to skip, or after a failure that may pass on its own.
  const keep = run.finishedCount > 0 || failure.transient
  if (keep) await run.saveCheckpoint()
  else await run.discardCheckpoint()
  showFailure(host, { ...failure, message: `${failure.message}${resumeHint(failure, run.finishedCount, keep)}` }, run.inputs.text, run.taskId)
  host.bus.emit('agent:taskFailed', { taskId: run.taskId, skill: run.skill.name, error: { code: failure.code, message: failure.message } })
}

/** Runs the task's steps; never throws: a failure or a stop is an outcome. */
export async function runToOutcome(host: OutcomeHost, run: TaskRun, resumed: boolean): Promise<TaskRecord['outcome']> {
  const { machine, bus, logger } = host
  if (machine.state === 'UNDERSTANDING') machine.transition('PLANNING')
  machine.transition('EXECUTING', resumed ? 'resume' : undefined)
  bus.emit('agent:taskStarted', { taskId: run.taskId, skill: run.skill.name, title: run.title })
  logger.log('agent.skill.started', { taskId: run.taskId, skill: run.skill.name, resumed })
  try {
    await run.run()
    machine.transition('COMPLETED')
    await host.api.deleteCheckpoint(run.taskId).catch(() => undefined)
    bus.emit('agent:taskCompleted', { taskId: run.taskId, skill: run.skill.name, path: run.path })
    logger.log('agent.task.completed', { taskId: run.taskId, skill: run.skill.name, ...host.costs.task(run.taskId) })
    return 'COMPLETED'
  } catch (error) {
    if (run.signal.aborted && machine.state === 'CANCELLED') {
      pushNote(host.state, STOPPED, run.taskId)
      return 'CANCELLED'
    }
    await fail(host, run, error)
    return 'ERROR'
  }
}
