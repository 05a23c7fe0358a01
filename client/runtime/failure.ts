import { errorCode } from '../api/errors'

/** Failures that may pass on their own: such a task keeps its checkpoint even if no step finished. */
const TRANSIENT_CODES: ReadonlySet<string> = new Set([
  'ERR_NETWORK',
  'ERR_LLM_RATE_LIMIT',
  'ERR_LLM_UPSTREAM',
  'ERR_LLM_UNREACHABLE',
  'ERR_LLM_TIMEOUT',
  'ERR_WATCHDOG',
])

export interface Failure {
  code: string
  message: string
  transient: boolean
}

function duration(ms: number): string {
  const minutes = Math.round(ms / 60_000)
  if (minutes >= 1) return `${minutes} minute${minutes === 1 ? '' : 's'}`
  const seconds = Math.max(1, Math.round(ms / 1000))
  return `${seconds} second${seconds === 1 ? '' : 's'}`
}

/** Why a task failed, as the error card shows it. The watchdog aborts with a TimeoutError. */
export function describeFailure(reason: unknown, watchdogMs: number): Failure {
  if ((reason as Error | null)?.name === 'TimeoutError') {
    return {
      code: 'ERR_WATCHDOG',
      message: `The task stopped making progress for ${duration(watchdogMs)} and was stopped.`,
      transient: true,
    }
  }
  const code = errorCode(reason) ?? 'ERR_TASK'
  const message = reason instanceof Error ? reason.message : String(reason)
  return { code, message, transient: TRANSIENT_CODES.has(code) }
}

/** What the error card adds about the checkpoint: whether, and from where, the task can resume. */
export function resumeHint(failure: Failure, finishedSteps: number, kept: boolean): string {
  if (!kept) return ''
  return finishedSteps > 0 ? ' The finished steps are saved: resume to continue from there.' : ' The task is saved: resume it to try again.'
}
