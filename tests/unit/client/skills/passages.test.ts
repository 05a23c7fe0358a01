import { describe, expect, it } from 'vitest'
import { bestPassages, queryTerms, scorePassage } from '../../../../client/skills/passages'

const page = `---
title: Caching
---

# Caching

This post is about many things, and caching is only one of them.

Cache invalidation with a time to live: every cached entry expires after its TTL, so the invalidation happens by itself.

\`\`\`ts
// cache invalidation cache invalidation in code is not a passage
\`\`\`

Unrelated paragraph about the weather.

Invalidation by events removes the cache entry the moment its source changes.
`

describe('queryTerms', () => {
  it('drops stop words and keeps Latin words in lower case', () => {
    expect(queryTerms('How does the Cache invalidation work?')).toEqual(['cache', 'invalidation', 'work'])
  })

  it('splits Chinese into two-character pieces, leaving out question words', () => {
    expect(queryTerms('如何配置缓存')).toEqual(['何配', '配置', '置缓', '缓存'])
    expect(queryTerms('猫')).toEqual(['猫'])
  })
})

describe('bestPassages', () => {
  it('ranks the paragraph with every term first and leaves out code and non-matching text', () => {
    const passages = bestPassages(page, 'cache invalidation', 2)
    expect(passages.map((passage) => passage.markdown)).toEqual([
      'Cache invalidation with a time to live: every cached entry expires after its TTL, so the invalidation happens by itself.',
      'Invalidation by events removes the cache entry the moment its source changes.',
    ])
    expect(passages[0]!.score).toBeGreaterThan(passages[1]!.score)
  })

  it('prefers a paragraph with every term over one that repeats a single term', () => {
    const repeated = 'Cache, cache, cache: a cache of caches, cached in a cache by the cache.'
    const covering = 'Cache invalidation, briefly.'
    expect(bestPassages(`${repeated}\n\n${covering}\n`, 'cache invalidation', 1)[0]!.markdown).toBe(covering)
  })

  it('returns nothing when no paragraph matches', () => {
    expect(bestPassages(page, 'kubernetes operators')).toEqual([])
    expect(bestPassages(page, 'the and of')).toEqual([])
  })

  it('matches whole-word starts for Latin terms, not the middle of words', () => {
    expect(scorePassage('Caches are fast.', ['cache'])).toBeGreaterThan(0)
    expect(scorePassage('A pseudocache is not one.', ['cache'])).toBe(0)
    expect(scorePassage('我们用cache来加速。', ['cache'])).toBeGreaterThan(0)
  })

  it('matches Chinese queries by substring and prefers the paragraph that covers more of the query', () => {
    const chinese = '# 缓存\n\n今天天气很好。\n\n我们在配置文件里设置缓存的过期时间。\n\n缓存会让读取更快。\n'
    const passages = bestPassages(chinese, '如何配置缓存', 2)
    expect(passages.map((passage) => passage.markdown)).toEqual(['我们在配置文件里设置缓存的过期时间。', '缓存会让读取更快。'])
  })

  it('shortens a long paragraph around its first match', () => {
    const long = `${'filler words go here '.repeat(60)}the needle is here ${'and more words after '.repeat(60)}`
    const [passage] = bestPassages(long, 'needle', 1, 200)
    expect(passage!.markdown.length).toBeLessThanOrEqual(202)
    expect(passage!.markdown).toContain('needle')
    expect(passage!.markdown.startsWith('…')).toBe(true)
    expect(passage!.markdown.endsWith('…')).toBe(true)
  })
})
