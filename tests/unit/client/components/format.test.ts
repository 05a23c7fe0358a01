import { describe, expect, it } from 'vitest'
import { explainCost, formatCost } from '../../../../client/components/format'
import { emptyCost, type CostTotals } from '../../../../client/runtime/cost-tracker'

const totals = (overrides: Partial<CostTotals>): CostTotals => ({ ...emptyCost(), calls: 1, ...overrides })

describe('formatCost', () => {
  it('shows tokens and dollars when everything is known', () => {
    expect(formatCost(totals({ totalTokens: 1234, cost: 0.0012 }))).toBe('1,234 tokens · $0.0012')
    expect(explainCost(totals({ totalTokens: 1234, cost: 0.0012 }))).toBeNull()
  })

  it('says the cost is unknown when a model has no price', () => {
    expect(formatCost(totals({ totalTokens: 15, unknownCost: true }))).toBe('15 tokens · cost unknown')
    expect(formatCost(totals({ totalTokens: 15, cost: 0.5, unknownCost: true }))).toBe('15 tokens · ≥$0.500 (some cost unknown)')
    expect(explainCost(totals({ unknownCost: true }))).toContain('No price is known')
  })

  it('says tokens and cost are unknown when no call reported usage', () => {
    expect(formatCost(totals({ unknownCost: true, unknownTokens: true }))).toBe('1 model call · tokens and cost unknown')
    expect(formatCost(totals({ calls: 3, unknownCost: true, unknownTokens: true }))).toBe('3 model calls · tokens and cost unknown')
    expect(explainCost(totals({ unknownCost: true, unknownTokens: true }))).toContain('did not report token usage')
  })

  it('marks tokens and dollars as lower bounds when only some calls reported usage', () => {
    expect(formatCost(totals({ calls: 2, totalTokens: 1234, cost: 0.0012, unknownCost: true, unknownTokens: true }))).toBe('≥1,234 tokens · ≥$0.0012 (some cost unknown)')
  })

  it('marks locally counted tokens as an estimate', () => {
    expect(formatCost(totals({ totalTokens: 1234, cost: 0.0012, estimated: true }))).toBe('≈1,234 tokens · $0.0012')
    expect(explainCost(totals({ estimated: true }))).toContain('the cost is an estimate')
  })
})
