// The agent's lifecycle: an explicit transition table plus a watchdog for stuck working states.
import { createListenerSet } from './listener-set'

export type AgentState =
  | 'IDLE'
  | 'UNDERSTANDING'
  | 'PLANNING'
  | 'EXECUTING'
  | 'WAITING_INPUT'
  | 'PAUSED'
  | 'COMPLETED'
  | 'ERROR'
  | 'CANCELLED'

export const AGENT_STATES: readonly AgentState[] = [
  'IDLE',
  'UNDERSTANDING',
  'PLANNING',
  'EXECUTING',
  'WAITING_INPUT',
  'PAUSED',
  'COMPLETED',
  'ERROR',
  'CANCELLED',
]

/** States where the agent is busy on its own; the watchdog only guards these. */
export const WORKING_STATES: readonly AgentState[] = ['UNDERSTANDING', 'PLANNING', 'EXECUTING']

/** States that end a task; from each of them a new task (or a resumed one) may start. */
export const FINAL_STATES: readonly AgentState[] = ['COMPLETED', 'ERROR', 'CANCELLED']

/**
 * Every allowed move, and nothing else. Why the less obvious ones exist:
 * - IDLE/final → EXECUTING: resuming a checkpointed task, whose intent and plan are already known.
 * - UNDERSTANDING → IDLE: the input needed no task (empty text, a dismissed question).
 * - UNDERSTANDING → EXECUTING: single-step skills need no plan.
 * - WAITING_INPUT → UNDERSTANDING: the author's answer to a clarifying question is parsed again.
 * - WAITING_INPUT → COMPLETED: the author accepted the last diff and nothing is left to do.
 * - EXECUTING → PAUSED → EXECUTING: a pause that keeps the task in this page. The contract lists
 *   PAUSED, but the runtime does not enter it today: Stop cancels (CANCELLED) and the checkpoint
 *   is what a later resume starts from.
 */
export const TRANSITIONS: Record<AgentState, readonly AgentState[]> = {
  IDLE: ['UNDERSTANDING', 'EXECUTING'],
  UNDERSTANDING: ['PLANNING', 'EXECUTING', 'WAITING_INPUT', 'ERROR', 'CANCELLED', 'IDLE'],
  PLANNING: ['EXECUTING', 'WAITING_INPUT', 'ERROR', 'CANCELLED'],
  EXECUTING: ['WAITING_INPUT', 'PAUSED', 'COMPLETED', 'ERROR', 'CANCELLED'],
  WAITING_INPUT: ['UNDERSTANDING', 'PLANNING', 'EXECUTING', 'COMPLETED', 'ERROR', 'CANCELLED'],
  PAUSED: ['EXECUTING', 'CANCELLED', 'ERROR'],
  COMPLETED: ['IDLE', 'UNDERSTANDING', 'EXECUTING'],
  ERROR: ['IDLE', 'UNDERSTANDING', 'EXECUTING'],
  CANCELLED: ['IDLE', 'UNDERSTANDING', 'EXECUTING'],
}

export const DEFAULT_WATCHDOG_MS = 5 * 60_000

export function isWorkingState(state: AgentState): boolean {
  return WORKING_STATES.includes(state)
}

/** Thrown by `transition()` for a move the table does not allow; a bug in the caller, not the user. */
export class StateTransitionError extends Error {
  readonly code = 'ERR_BAD_TRANSITION'
  readonly from: AgentState
  readonly to: AgentState

  constructor(from: AgentState, to: AgentState) {
    const allowed = TRANSITIONS[from].join(', ')
    super(`The agent cannot go from ${from} to ${to}; from ${from} it can go to: ${allowed}.`)
    this.name = 'StateTransitionError'
    this.from = from
    this.to = to
  }
}

export interface StateChange {
  from: AgentState
  to: AgentState
  reason?: string
  at: number
}

export interface StateMachineOptions {
  initial?: AgentState
  /** How long a working state may go without progress (`touch()` or a transition). */
  watchdogMs?: number
  /** Called after the watchdog moved the machine to ERROR; the runtime aborts the task here. */
  onStuck?: (stuckIn: AgentState) => void
  now?: () => number
}

export class StateMachine {
  private current: AgentState
  private readonly watchdogMs: number
  private readonly onStuck: ((stuckIn: AgentState) => void) | undefined
  private readonly now: () => number
  private readonly listeners = createListenerSet<StateChange>('the agent state')
  private watchdog: ReturnType<typeof setTimeout> | undefined
  private disposed = false

  constructor(options: StateMachineOptions = {}) {
    this.current = options.initial ?? 'IDLE'
    this.watchdogMs = options.watchdogMs ?? DEFAULT_WATCHDOG_MS
    this.onStuck = options.onStuck
    this.now = options.now ?? (() => Date.now())
    this.armWatchdog()
  }

  get state(): AgentState {
    return this.current
  }

  can(to: AgentState): boolean {
    return TRANSITIONS[this.current].includes(to)
  }

  /** Moves to `to` and notifies the listeners; throws `StateTransitionError` if the table forbids it. */
  transition(to: AgentState, reason?: string): StateChange {
    const from = this.current
    if (!this.can(to)) throw new StateTransitionError(from, to)
    this.current = to
    this.armWatchdog()
    const change: StateChange = reason === undefined ? { from, to, at: this.now() } : { from, to, reason, at: this.now() }
    this.listeners.emit(change)
    return change
  }

  /** Reports progress (a streamed chunk, a finished step), which restarts the watchdog. */
  touch(): void {
    if (this.watchdog !== undefined) this.armWatchdog()
  }

  subscribe(listener: (change: StateChange) => void): () => void {
    return this.listeners.add(listener)
  }

  dispose(): void {
    this.disposed = true
    this.clearWatchdog()
    this.listeners.clear()
  }

  private armWatchdog(): void {
    this.clearWatchdog()
    if (this.disposed || !isWorkingState(this.current)) return
    this.watchdog = setTimeout(() => this.fireWatchdog(), this.watchdogMs)
  }

  private clearWatchdog(): void {
    if (this.watchdog === undefined) return
    clearTimeout(this.watchdog)
    this.watchdog = undefined
  }

  private fireWatchdog(): void {
    this.watchdog = undefined
    const stuckIn = this.current
    if (!isWorkingState(stuckIn)) return
    this.transition('ERROR', 'watchdog')
    try {
      this.onStuck?.(stuckIn)
    } catch (error) {
      // A timer callback has no caller to throw to.
      console.error('[metablog] the watchdog\'s onStuck callback threw.', error)
    }
  }
}
