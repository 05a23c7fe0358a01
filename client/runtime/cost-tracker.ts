// Tokens and dollars per task and for the whole page session, priced from the gateway's table.
import type { ModelPrice } from '../../plugin/protocol'
import { createListenerSet } from './listener-set'

export interface TokenUsage {
  promptTokens: number
  completionTokens: number
  /** A cost the caller already knows (e.g. reported by the provider); null means "unknown". */
  cost?: number | null
}

export interface CostTotals {
  promptTokens: number
  completionTokens: number
  totalTokens: number
  /** Dollars for the calls whose price is known. */
  cost: number
  /** True when at least one call had no known price, so `cost` is a lower bound. */
  unknownCost: boolean
  calls: number
}

export interface UsageRecord {
  taskId: string
  model: string
  promptTokens: number
  completionTokens: number
  cost: number | null
}

export interface CostChange {
  record: UsageRecord
  task: CostTotals
  session: CostTotals
}

export interface CostTrackerOptions {
  /** Keyed by model name; lookups ignore case, a `provider/` prefix and a `-YYYY-MM-DD` suffix. */
  prices?: Record<string, ModelPrice>
}

function emptyTotals(): CostTotals {
  return { promptTokens: 0, completionTokens: 0, totalTokens: 0, cost: 0, unknownCost: false, calls: 0 }
}

// Usage comes from upstream responses, which may omit or mangle the counts.
function count(value: unknown): number {
  return typeof value === 'number' && Number.isFinite(value) && value > 0 ? Math.round(value) : 0
}

function add(totals: CostTotals, record: UsageRecord): void {
  totals.promptTokens += record.promptTokens
  totals.completionTokens += record.completionTokens
  totals.totalTokens += record.promptTokens + record.completionTokens
  totals.calls += 1
  if (record.cost === null) totals.unknownCost = true
  else totals.cost += record.cost
}

export class CostTracker {
  private prices = new Map<string, ModelPrice>()
  private readonly tasks = new Map<string, CostTotals>()
  private readonly sessionTotals = emptyTotals()
  private readonly listeners = createListenerSet<CostChange>('cost changes')

  constructor(options: CostTrackerOptions = {}) {
    this.setPrices(options.prices ?? {})
  }

  /** Replaces the price table; costs already recorded keep the price they had. */
  setPrices(prices: Record<string, ModelPrice>): void {
    this.prices = new Map(Object.entries(prices).map(([model, price]) => [model.toLowerCase(), price]))
  }

  priceOf(model: string): ModelPrice | undefined {
    const name = model.toLowerCase()
    const bare = name.slice(name.lastIndexOf('/') + 1)
    const undated = bare.replace(/-\d{4}-\d{2}-\d{2}$/u, '')
    return this.prices.get(name) ?? this.prices.get(bare) ?? this.prices.get(undated)
  }

  /** Adds one model call to its task and to the session, and returns it with its cost worked out. */
  record(taskId: string, model: string, usage: TokenUsage): UsageRecord {
    const promptTokens = count(usage.promptTokens)
    const completionTokens = count(usage.completionTokens)
    const record: UsageRecord = { taskId, model, promptTokens, completionTokens, cost: this.costOf(model, usage) }

    let task = this.tasks.get(taskId)
    if (task === undefined) {
      task = emptyTotals()
      this.tasks.set(taskId, task)
    }
    add(task, record)
    add(this.sessionTotals, record)
    this.listeners.emit({ record, task: { ...task }, session: { ...this.sessionTotals } })
    return record
  }

  /** Totals for one task; an unknown task has spent nothing. */
  task(taskId: string): CostTotals {
    const totals = this.tasks.get(taskId)
    return totals ? { ...totals } : emptyTotals()
  }

  session(): CostTotals {
    return { ...this.sessionTotals }
  }

  taskIds(): string[] {
    return [...this.tasks.keys()]
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
    if (price === undefined) return null
    return (count(usage.promptTokens) * price.input + count(usage.completionTokens) * price.output) / 1_000_000
  }
}
