// Small formatters shared by the chat components.
import type { CostTotals } from '../runtime/cost-tracker'

const integer = new Intl.NumberFormat('en-US')

export function formatCount(value: number): string {
  return integer.format(value)
}

/** Dollars with enough digits that a cheap reply does not read as free. */
export function formatDollars(value: number): string {
  if (value === 0) return '$0'
  if (value < 0.0001) return '<$0.0001'
  return `$${value.toFixed(value < 0.01 ? 4 : value < 1 ? 3 : 2)}`
}

/** "1,234 tokens · $0.0012", or "cost unknown" when a call had no known price. */
export function formatCost(cost: CostTotals): string {
  const tokens = `${formatCount(cost.totalTokens)} token${cost.totalTokens === 1 ? '' : 's'}`
  if (!cost.unknownCost) return `${tokens} · ${formatDollars(cost.cost)}`
  return cost.cost > 0 ? `${tokens} · ≥${formatDollars(cost.cost)} (some cost unknown)` : `${tokens} · cost unknown`
}

/** "just now", "5 min ago", "3 h ago", "2 days ago". */
export function timeAgo(time: number, now = Date.now()): string {
  const minutes = Math.round((now - time) / 60_000)
  if (minutes < 1) return 'just now'
  if (minutes < 60) return `${minutes} min ago`
  const hours = Math.round(minutes / 60)
  if (hours < 24) return `${hours} h ago`
  const days = Math.round(hours / 24)
  return `${days} day${days === 1 ? '' : 's'} ago`
}
