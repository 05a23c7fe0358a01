import { describe, expect, it } from 'vitest'
import { priceFor } from '../../../../client/api/cost.js'

const prices = { 'gpt-4o-mini': { input: 0.15, output: 0.6 }, 'gpt-4o': { input: 2.5, output: 10 }, 'qwen-plus': { input: 0.4, output: 1.2 } }

describe('priceFor', () => {
  it('finds exact names, provider-prefixed names and dated snapshots', () => {
    expect(priceFor('gpt-4o-mini', prices)).toEqual(prices['gpt-4o-mini'])
    expect(priceFor('GPT-4o', prices)).toEqual(prices['gpt-4o'])
    expect(priceFor('openai/gpt-4o-mini', prices)).toEqual(prices['gpt-4o-mini'])
    expect(priceFor('gpt-4o-mini-2024-07-18', prices)).toEqual(prices['gpt-4o-mini'])
    expect(priceFor('qwen-plus-latest', prices)).toEqual(prices['qwen-plus'])
  })

  it('does not guess the price of a different variant', () => {
    expect(priceFor('gpt-4o-audio-preview', prices)).toBeNull()
    expect(priceFor('llama3.1:8b', prices)).toBeNull()
    expect(priceFor('constructor', prices)).toBeNull()
  })
})
