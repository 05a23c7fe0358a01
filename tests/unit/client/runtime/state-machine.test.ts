import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import {
  AGENT_STATES,
  DEFAULT_WATCHDOG_MS,
  StateMachine,
  StateTransitionError,
  TRANSITIONS,
} from '../../../../client/runtime/state-machine'
import type { AgentState, StateChange } from '../../../../client/runtime/state-machine'

const ALLOWED = AGENT_STATES.flatMap((from) => TRANSITIONS[from].map((to) => [from, to] as const))

const FORBIDDEN: Array<readonly [AgentState, AgentState]> = [
  ['IDLE', 'COMPLETED'],
  ['IDLE', 'PAUSED'],
  ['IDLE', 'ERROR'],
  ['IDLE', 'IDLE'],
  ['UNDERSTANDING', 'COMPLETED'],
  ['UNDERSTANDING', 'PAUSED'],
  ['PLANNING', 'COMPLETED'],
  ['PLANNING', 'IDLE'],
  ['EXECUTING', 'IDLE'],
  ['EXECUTING', 'UNDERSTANDING'],
  ['EXECUTING', 'EXECUTING'],
  ['WAITING_INPUT', 'PAUSED'],
  ['WAITING_INPUT', 'IDLE'],
  ['PAUSED', 'COMPLETED'],
  ['PAUSED', 'IDLE'],
  ['COMPLETED', 'ERROR'],
  ['COMPLETED', 'PAUSED'],
  ['ERROR', 'COMPLETED'],
  ['CANCELLED', 'WAITING_INPUT'],
]

describe('TRANSITIONS', () => {
  it('covers every state and only names known states', () => {
    expect(Object.keys(TRANSITIONS).sort()).toEqual([...AGENT_STATES].sort())
    for (const targets of Object.values(TRANSITIONS)) for (const to of targets) expect(AGENT_STATES).toContain(to)
  })

  it.each(ALLOWED)('allows %s → %s', (from, to) => {
    const machine = new StateMachine({ initial: from })
    expect(machine.can(to)).toBe(true)
    const change = machine.transition(to, 'test')
    expect(change).toMatchObject({ from, to, reason: 'test' })
    expect(machine.state).toBe(to)
    machine.dispose()
  })

  it.each(FORBIDDEN)('forbids %s → %s with ERR_BAD_TRANSITION', (from, to) => {
    expect(TRANSITIONS[from]).not.toContain(to)
    const machine = new StateMachine({ initial: from })
    expect(machine.can(to)).toBe(false)
    expect(() => machine.transition(to)).toThrow(expect.objectContaining({ code: 'ERR_BAD_TRANSITION', from, to }))
    expect(() => machine.transition(to)).toThrow(StateTransitionError)
    expect(machine.state).toBe(from)
    machine.dispose()
  })

  it('lets every final state start a new task or resume one', () => {
    for (const final of ['COMPLETED', 'ERROR', 'CANCELLED'] as const) {
      expect(TRANSITIONS[final]).toEqual(expect.arrayContaining(['IDLE', 'UNDERSTANDING', 'EXECUTING']))
    }
  })
})

describe('StateMachine listeners', () => {
  it('tells subscribers about each change until they unsubscribe', () => {
    const machine = new StateMachine({ now: () => 42 })
    const changes: StateChange[] = []
    const unsubscribe = machine.subscribe((change) => changes.push(change))
    machine.transition('UNDERSTANDING')
    machine.transition('EXECUTING', 'single step')
    unsubscribe()
    machine.transition('COMPLETED')
    expect(changes).toEqual([
      { from: 'IDLE', to: 'UNDERSTANDING', at: 42 },
      { from: 'UNDERSTANDING', to: 'EXECUTING', reason: 'single step', at: 42 },
    ])
    machine.dispose()
  })

  it('does not notify anyone about a refused transition', () => {
    const machine = new StateMachine()
    const listener = vi.fn()
    machine.subscribe(listener)
    expect(() => machine.transition('COMPLETED')).toThrow()
    expect(listener).not.toHaveBeenCalled()
  })
})

describe('StateMachine watchdog', () => {
  beforeEach(() => {
    vi.useFakeTimers()
  })
  afterEach(() => {
    vi.useRealTimers()
  })

  it('defaults to five minutes', () => {
    const onStuck = vi.fn()
    const machine = new StateMachine({ onStuck })
    machine.transition('UNDERSTANDING')
    vi.advanceTimersByTime(DEFAULT_WATCHDOG_MS - 1)
    expect(onStuck).not.toHaveBeenCalled()
    vi.advanceTimersByTime(1)
    expect(DEFAULT_WATCHDOG_MS).toBe(5 * 60_000)
    expect(onStuck).toHaveBeenCalledWith('UNDERSTANDING')
    expect(machine.state).toBe('ERROR')
  })

  it('turns a stuck working state into ERROR with reason "watchdog", then calls onStuck', () => {
    const order: string[] = []
    const machine = new StateMachine({ watchdogMs: 1000, onStuck: (state) => order.push(`stuck in ${state}`) })
    machine.subscribe((change) => order.push(`${change.from}→${change.to} (${change.reason ?? ''})`))
    machine.transition('UNDERSTANDING')
    machine.transition('EXECUTING')
    vi.advanceTimersByTime(1000)
    expect(machine.state).toBe('ERROR')
    expect(order).toEqual(['IDLE→UNDERSTANDING ()', 'UNDERSTANDING→EXECUTING ()', 'EXECUTING→ERROR (watchdog)', 'stuck in EXECUTING'])
  })

  it('is postponed by touch()', () => {
    const onStuck = vi.fn()
    const machine = new StateMachine({ watchdogMs: 1000, onStuck })
    machine.transition('UNDERSTANDING')
    machine.transition('PLANNING')
    vi.advanceTimersByTime(900)
    machine.touch()
    vi.advanceTimersByTime(900)
    machine.touch()
    vi.advanceTimersByTime(999)
    expect(onStuck).not.toHaveBeenCalled()
    expect(machine.state).toBe('PLANNING')
    vi.advanceTimersByTime(1)
    expect(onStuck).toHaveBeenCalledTimes(1)
  })

  it('is restarted by a move between working states', () => {
    const onStuck = vi.fn()
    const machine = new StateMachine({ watchdogMs: 1000, onStuck })
    machine.transition('UNDERSTANDING')
    vi.advanceTimersByTime(800)
    machine.transition('EXECUTING')
    vi.advanceTimersByTime(800)
    expect(onStuck).not.toHaveBeenCalled()
  })

  it.each(['WAITING_INPUT', 'PAUSED', 'COMPLETED', 'CANCELLED'] as const)('is disarmed by leaving for %s', (rest) => {
    const onStuck = vi.fn()
    const machine = new StateMachine({ watchdogMs: 1000, onStuck })
    machine.transition('UNDERSTANDING')
    machine.transition('EXECUTING')
    machine.transition(rest)
    vi.advanceTimersByTime(10_000)
    expect(onStuck).not.toHaveBeenCalled()
    expect(machine.state).toBe(rest)
  })

  it('does not run while idle, and touch() does not arm it', () => {
    const onStuck = vi.fn()
    const machine = new StateMachine({ watchdogMs: 1000, onStuck })
    machine.touch()
    vi.advanceTimersByTime(10_000)
    expect(onStuck).not.toHaveBeenCalled()
    expect(vi.getTimerCount()).toBe(0)
  })

  it('arms for a machine created in a working state, and dispose() clears it', () => {
    const onStuck = vi.fn()
    const machine = new StateMachine({ initial: 'EXECUTING', watchdogMs: 1000, onStuck })
    expect(vi.getTimerCount()).toBe(1)
    machine.dispose()
    expect(vi.getTimerCount()).toBe(0)
    vi.advanceTimersByTime(10_000)
    expect(onStuck).not.toHaveBeenCalled()
    expect(machine.state).toBe('EXECUTING')
  })

  it('keeps going when onStuck throws', () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => {})
    const machine = new StateMachine({ watchdogMs: 10, onStuck: () => { throw new Error('abort failed') } })
    machine.transition('UNDERSTANDING')
    vi.advanceTimersByTime(10)
    expect(machine.state).toBe('ERROR')
    expect(error).toHaveBeenCalled()
    error.mockRestore()
  })
})
