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

/**
 * "1,234 tokens · $0.0012"; "≥" marks a lower bound when some call had no known price or reported no
 * usage, and "tokens and cost unknown" is all there is to say when no call reported usage.
 */
export function formatCost(cost: CostTotals): string {
  if (cost.unknownTokens && cost.totalTokens === 0) return `${formatCount(cost.calls)} model call${cost.calls === 1 ? '' : 's'} · tokens and cost unknown`
  const tokens = `${cost.unknownTokens ? '≥' : cost.estimated ? '≈' : ''}${formatCount(cost.totalTokens)} token${cost.totalTokens === 1 ? '' : 's'}`
  if (!cost.unknownCost) return `${tokens} · ${formatDollars(cost.cost)}`
  return cost.cost > 0 ? `${tokens} · ≥${formatDollars(cost.cost)} (some cost unknown)` : `${tokens} · cost unknown`
}

/** Why a total is incomplete, for a tooltip; null when it is complete. */
export function explainCost(cost: CostTotals): string | null {
  if (cost.unknownTokens) return 'The model server did not report token usage for some calls, so their tokens and cost are unknown.'
  if (cost.unknownCost) return 'No price is known for the model used, so its cost is not included.'
  if (cost.estimated) return 'The model server did not report token usage for some calls, so their tokens were counted here and the cost is an estimate.'
  return null
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
