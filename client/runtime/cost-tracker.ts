// Tokens and dollars per task and for the whole page session, priced from the gateway's table.
import type { ModelPrice } from '../../plugin/protocol'
import { priceFor } from '../api/cost'
import { createListenerSet } from './listener-set'

export interface TokenUsage {
  promptTokens: number
  completionTokens: number
  /** A cost the caller already knows (e.g. reported by the provider); null means "unknown". */
  cost?: number | null
  /** Counted locally because the provider sent no usage: close, not exact. */
  estimated?: boolean
}

export interface CostTotals {
  promptTokens: number
  completionTokens: number
  totalTokens: number
  /** Dollars for the calls whose price is known. */
  cost: number
  /** True when at least one call had no known price, so `cost` is a lower bound. */
  unknownCost: boolean
  /** True when at least one call reported no usage, so the token counts are a lower bound too. */
  unknownTokens: boolean
  calls: number
  /** True when some call's tokens were counted locally (the provider sent no usage), so totals are estimates. */
  estimated?: boolean
}

/** One model call; null tokens mean the provider reported no usage, a null cost that the price is unknown. */
export interface UsageRecord {
  taskId: string
  model: string
  promptTokens: number | null
  completionTokens: number | null
  cost: number | null
  /** The tokens were counted locally, not reported by the provider. */
  estimated?: boolean
}

export interface CostChange {
  record: UsageRecord
  task: CostTotals
  session: CostTotals
}

export interface CostTrackerOptions {
  /** Keyed by model name; lookups ignore case, a `provider/` prefix and a snapshot suffix (see `priceFor`). */
  prices?: Record<string, ModelPrice>
}

/** Per-task totals kept for the most recent tasks only; the session total keeps everything. */
export const KEPT_TASKS = 50

export function emptyCost(): CostTotals {
  return { promptTokens: 0, completionTokens: 0, totalTokens: 0, cost: 0, unknownCost: false, unknownTokens: false, calls: 0 }
}

export function addCosts(first: CostTotals, second: CostTotals): CostTotals {
  return {
    promptTokens: first.promptTokens + second.promptTokens,
    completionTokens: first.completionTokens + second.completionTokens,
    totalTokens: first.totalTokens + second.totalTokens,
    cost: first.cost + second.cost,
    unknownCost: first.unknownCost || second.unknownCost,
    unknownTokens: first.unknownTokens || second.unknownTokens,
    calls: first.calls + second.calls,
    ...(first.estimated || second.estimated ? { estimated: true } : {}),
  }
}

// Usage comes from upstream responses, which may omit or mangle the counts.
function count(value: unknown): number {
  return typeof value === 'number' && Number.isFinite(value) && value > 0 ? Math.round(value) : 0
}

function totalsOf(record: UsageRecord): CostTotals {
  const promptTokens = record.promptTokens ?? 0
  const completionTokens = record.completionTokens ?? 0
  const { cost } = record
  return {
    promptTokens,
    completionTokens,
    totalTokens: promptTokens + completionTokens,
    cost: cost ?? 0,
    unknownCost: cost === null,
    unknownTokens: record.promptTokens === null,
    calls: 1,
    ...(record.estimated ? { estimated: true } : {}),
  }
}

export class CostTracker {
  private prices: Record<string, ModelPrice> = {}
  private readonly tasks = new Map<string, CostTotals>()
  private sessionTotals = emptyCost()
  private readonly listeners = createListenerSet<CostChange>('cost changes')

  constructor(options: CostTrackerOptions = {}) {
    this.setPrices(options.prices ?? {})
  }

  /** Replaces the price table; costs already recorded keep the price they had. */
  setPrices(prices: Record<string, ModelPrice>): void {
    this.prices = Object.fromEntries(Object.entries(prices).map(([model, price]) => [model.toLowerCase(), price]))
  }

  priceOf(model: string): ModelPrice | null {
    return priceFor(model, this.prices)
  }

  /**
   * Adds one model call to its task and to the session, and returns it with its cost worked out.
   * `usage` is null when the provider reported none: the call still counts, with unknown tokens and cost.
   */
  record(taskId: string, model: string, usage: TokenUsage | null): UsageRecord {
    const record: UsageRecord = usage
      ? { taskId, model, promptTokens: count(usage.promptTokens), completionTokens: count(usage.completionTokens), cost: this.costOf(model, usage), ...(usage.estimated ? { estimated: true } : {}) }
      : { taskId, model, promptTokens: null, completionTokens: null, cost: null }

    const task = addCosts(this.tasks.get(taskId) ?? emptyCost(), totalsOf(record))
    // Re-inserting moves the task to the end, so the oldest task is the first key.
    this.tasks.delete(taskId)
    this.tasks.set(taskId, task)
    while (this.tasks.size > KEPT_TASKS) this.forget(this.tasks.keys().next().value!)
    this.sessionTotals = addCosts(this.sessionTotals, totalsOf(record))
    this.listeners.emit({ record, task: { ...task }, session: { ...this.sessionTotals } })
    return record
  }

  /** Totals for one task; an unknown task has spent nothing. */
  task(taskId: string): CostTotals {
    const totals = this.tasks.get(taskId)
    return totals ? { ...totals } : emptyCost()
  }

  session(): CostTotals {
    return { ...this.sessionTotals }
  }

  /** Drops a finished task's totals; the session keeps what it spent. */
  forget(taskId: string): void {
    this.tasks.delete(taskId)
  }

  subscribe(listener: (change: CostChange) => void): () => void {
    return this.listeners.add(listener)
  }

  private costOf(model: string, usage: TokenUsage): number | null {
    if (usage.cost === null) return null
    if (usage.cost !== undefined) return Number.isFinite(usage.cost) && usage.cost >= 0 ? usage.cost : null
    const price = this.priceOf(model)
    if (price === null) return null
    return (count(usage.promptTokens) * price.input + count(usage.completionTokens) * price.output) / 1_000_000
  }
}
