import type { ModelPrice } from '../../plugin/protocol.js'

/**
 * List prices in US dollars per million input/output tokens (standard tier, cache misses),
 * as published by each provider in late 2025. Prices change: authors override or extend
 * them with the `llm.prices` option. Models not listed report tokens and no cost.
 */
export const DEFAULT_PRICES: Readonly<Record<string, ModelPrice>> = {
  // OpenAI
  'gpt-5': { input: 1.25, output: 10 },
  'gpt-5-mini': { input: 0.25, output: 2 },
  'gpt-5-nano': { input: 0.05, output: 0.4 },
  'gpt-4.1': { input: 2, output: 8 },
  'gpt-4.1-mini': { input: 0.4, output: 1.6 },
  'gpt-4.1-nano': { input: 0.1, output: 0.4 },
  'gpt-4o': { input: 2.5, output: 10 },
  'gpt-4o-mini': { input: 0.15, output: 0.6 },
  'o3': { input: 2, output: 8 },
  'o3-mini': { input: 1.1, output: 4.4 },
  'o4-mini': { input: 1.1, output: 4.4 },
  // DeepSeek
  'deepseek-chat': { input: 0.28, output: 0.42 },
  'deepseek-reasoner': { input: 0.28, output: 0.42 },
  // Qwen (Alibaba Cloud Model Studio, international)
  'qwen-max': { input: 1.6, output: 6.4 },
  'qwen-plus': { input: 0.4, output: 1.2 },
  'qwen-turbo': { input: 0.05, output: 0.2 },
  'qwen-flash': { input: 0.05, output: 0.4 },
  // Moonshot (Kimi)
  'moonshot-v1-8k': { input: 0.2, output: 2 },
  'moonshot-v1-32k': { input: 1, output: 3 },
  'moonshot-v1-128k': { input: 2, output: 5 },
  'kimi-k2-0905-preview': { input: 0.6, output: 2.5 },
}

function isPrice(value: unknown): value is ModelPrice {
  const price = value as ModelPrice | null
  return (
    typeof price === 'object' &&
    price !== null &&
    Number.isFinite(price.input) &&
    Number.isFinite(price.output) &&
    price.input >= 0 &&
    price.output >= 0
  )
}

/** The built-in table with the author's overrides on top; keys are lowercased, bad entries reported and skipped. */
export function mergePrices(overrides: Record<string, unknown> = {}, warn: (message: string) => void = () => {}): Record<string, ModelPrice> {
  const prices: Record<string, ModelPrice> = {}
  for (const [model, price] of Object.entries(DEFAULT_PRICES)) prices[model] = { ...price }
  for (const [model, price] of Object.entries(overrides)) {
    if (!isPrice(price)) {
      warn(`[metablog] llm.prices["${model}"] is ignored: give {input, output} in US dollars per million tokens, both numbers ≥ 0.`)
      continue
    }
    prices[model.toLowerCase()] = { input: price.input, output: price.output }
  }
  return prices
}
