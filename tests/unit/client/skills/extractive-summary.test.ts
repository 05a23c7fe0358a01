import { describe, expect, it } from 'vitest'
import { extractiveSummary, firstSentence } from '../../../../client/skills/extractive-summary'

const page = `---
title: "Caching in Practice"
description: "Old words."
---

# Caching in Practice

A cache keeps the answers to expensive questions close to where they are asked. It is filler that says nothing much here.

Some unrelated chatter about the weather and my cat, which sleeps all day long.

## Invalidation

Invalidation decides when a cache entry stops being true. People joke that it is one of the two hard problems.

A cache entry with a time to live expires by itself, so a stale cache answer lives only so long.

\`\`\`ts
// This cache comment sentence must never be picked, even with many cache cache cache words.
const cache = new Map()
\`\`\`

## Sizes

Bounded caches evict the least recently used entry when they are full.

Unbounded caches grow until the process runs out of memory and the cache takes everything down.
`

describe('extractiveSummary', () => {
  it('picks the first sentence under each heading and the best-scoring others, in page order', () => {
    const sentences = extractiveSummary(page, 5)
    expect(sentences).toEqual([
      'A cache keeps the answers to expensive questions close to where they are asked.',
      'Invalidation decides when a cache entry stops being true.',
      'A cache entry with a time to live expires by itself, so a stale cache answer lives only so long.',
      'Bounded caches evict the least recently used entry when they are full.',
      'Unbounded caches grow until the process runs out of memory and the cache takes everything down.',
    ])
  })

  it('returns plain sentences with no label, no markup and nothing from code or front matter', () => {
    const sentences = extractiveSummary(page, 5)
    for (const sentence of sentences) {
      expect(sentence).not.toMatch(/summary|\*|`|#|Old words|comment sentence/i)
    }
  })

  it('keeps the requested number of sentences and the page order', () => {
    const three = extractiveSummary(page, 3)
    expect(three).toHaveLength(3)
    const order = three.map((sentence) => page.indexOf(sentence))
    expect(order).toEqual([...order].sort((left, right) => left - right))
    expect(three[0]).toBe('A cache keeps the answers to expensive questions close to where they are asked.')
  })

  it('returns every sentence of a short page, and nothing for a page without prose', () => {
    expect(extractiveSummary('# Title\n\nOnly one real sentence lives on this page.\n', 5)).toEqual(['Only one real sentence lives on this page.'])
    expect(extractiveSummary('# Title\n\n```js\nconsole.log(1)\n```\n', 5)).toEqual([])
  })

  it('reads Chinese sentences and links as their text', () => {
    const sentences = extractiveSummary('# 缓存\n\n缓存把昂贵计算的结果保存在离使用者很近的地方。详见[[guide/cache|缓存指南]]里的缓存失效章节。\n', 5)
    expect(sentences).toEqual(['缓存把昂贵计算的结果保存在离使用者很近的地方。', '详见缓存指南里的缓存失效章节。'])
  })
})

describe('firstSentence', () => {
  it('takes the first sentence of a model summary, without a label or markup', () => {
    expect(firstSentence('**TL;DR:** Caches trade memory for speed. They need invalidation.\n\n- point one')).toBe('Caches trade memory for speed.')
    expect(firstSentence('## Summary\n\n缓存用内存换速度。它需要失效策略。')).toBe('缓存用内存换速度。')
    expect(firstSentence('')).toBe('')
  })
})
