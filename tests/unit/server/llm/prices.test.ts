import { describe, expect, it } from 'vitest'
import { DEFAULT_PRICES, mergePrices } from '../../../../server/llm/prices.js'

describe('prices', () => {
  it('covers the common models of each provider', () => {
    for (const model of ['gpt-4o-mini', 'gpt-4o', 'deepseek-chat', 'deepseek-reasoner', 'qwen-plus', 'moonshot-v1-8k']) {
      expect(DEFAULT_PRICES[model], model).toBeDefined()
    }
  })

  it('lets options override and extend the table, lowercasing names', () => {
    const prices = mergePrices({ 'gpt-4o-mini': { input: 1, output: 2 }, 'My-Model': { input: 0, output: 0 } })
    expect(prices['gpt-4o-mini']).toEqual({ input: 1, output: 2 })
    expect(prices['my-model']).toEqual({ input: 0, output: 0 })
    expect(prices['deepseek-chat']).toEqual(DEFAULT_PRICES['deepseek-chat'])
    expect(DEFAULT_PRICES['gpt-4o-mini']).toEqual({ input: 0.15, output: 0.6 })
  })

  it('skips and reports malformed overrides', () => {
    const warnings: string[] = []
    const prices = mergePrices({ broken: { input: -1, output: 2 }, words: 'cheap' } as Record<string, unknown>, (message) => warnings.push(message))
    expect(prices.broken).toBeUndefined()
    expect(prices.words).toBeUndefined()
    expect(warnings).toHaveLength(2)
    expect(warnings[0]).toContain('llm.prices["broken"]')
  })
})
