import type { ModelPrice } from '../../plugin/protocol'

export interface TokenUsage {
  prompt_tokens: number
  completion_tokens: number
  total_tokens?: number
}

export interface Cost {
  inputTokens: number
  outputTokens: number
  totalTokens: number
  /** US dollars, or null for a model with no known price. */
  usd: number | null
}

// Dated or "-latest" snapshots cost what their family costs; other variants are not guessed.
const SNAPSHOT_SUFFIX = /-(\d{4}-\d{2}-\d{2}|\d{4}|\d{6,8}|latest)$/

/** The price of a model from the status table: exact name, then without a provider prefix or snapshot suffix. */
export function priceFor(model: string, prices: Readonly<Record<string, ModelPrice>>): ModelPrice | null {
  const name = model.trim().toLowerCase()
  const bare = name.slice(name.lastIndexOf('/') + 1)
  for (const candidate of [name, bare, bare.replace(SNAPSHOT_SUFFIX, '')]) {
    if (Object.hasOwn(prices, candidate)) return prices[candidate]!
  }
  return null
}

/** Tokens always; dollars only when the model's price is known. */
export function costOf(usage: TokenUsage, model: string, prices: Readonly<Record<string, ModelPrice>>): Cost {
  const inputTokens = usage.prompt_tokens
  const outputTokens = usage.completion_tokens
  const price = priceFor(model, prices)
  return {
    inputTokens,
    outputTokens,
    totalTokens: usage.total_tokens ?? inputTokens + outputTokens,
    usd: price ? (inputTokens * price.input + outputTokens * price.output) / 1_000_000 : null,
  }
}
