import { describe, expect, it } from 'vitest'
import { LruCache } from '../../../../client/runtime/lru-cache'

function clock(start = 0) {
  let now = start
  return { now: () => now, advance: (ms: number) => (now += ms) }
}

describe('LruCache', () => {
  it('evicts the least recently used entry, counting reads as use', () => {
    const cache = new LruCache<string, number>({ maxEntries: 2, ttlMs: 1000 })
    cache.set('a', 1)
    cache.set('b', 2)
    expect(cache.get('a')).toBe(1)
    cache.set('c', 3)
    expect(cache.has('b')).toBe(false)
    expect(cache.get('a')).toBe(1)
    expect(cache.get('c')).toBe(3)
    expect(cache.size).toBe(2)
  })

  it('overwrites a key without growing', () => {
    const cache = new LruCache<string, number>({ maxEntries: 2, ttlMs: 1000 })
    cache.set('a', 1)
    cache.set('a', 2)
    expect(cache.size).toBe(1)
    expect(cache.get('a')).toBe(2)
  })

  it('expires entries ttl after they were set, even if read meanwhile', () => {
    const time = clock()
    const cache = new LruCache<string, string>({ maxEntries: 5, ttlMs: 100, now: time.now })
    cache.set('k', 'v')
    time.advance(99)
    expect(cache.get('k')).toBe('v')
    time.advance(1)
    expect(cache.get('k')).toBeUndefined()
    expect(cache.size).toBe(0)
  })

  it('deletes and clears', () => {
    const cache = new LruCache<string, number>({ maxEntries: 3, ttlMs: 1000 })
    cache.set('a', 1)
    cache.set('b', 2)
    expect(cache.delete('a')).toBe(true)
    expect(cache.delete('a')).toBe(false)
    cache.clear()
    expect(cache.size).toBe(0)
  })

  it('refuses a size below one', () => {
    expect(() => new LruCache({ maxEntries: 0, ttlMs: 1 })).toThrow(RangeError)
  })
})
