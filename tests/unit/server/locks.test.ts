import { describe, expect, it } from 'vitest'
import { LockManager } from '../../../server/locks.js'

function clock(start = 1_000) {
  let now = start
  return { now: () => now, advance: (ms: number) => (now += ms) }
}

describe('LockManager', () => {
  it('gives a lock to one task and refuses the others with the holder named', () => {
    const time = clock()
    const locks = new LockManager({ ttlMs: 1000, now: time.now })
    expect(locks.acquire('a.md', 'task-1')).toEqual({ path: 'a.md', taskId: 'task-1', expiresAt: 2000 })
    expect(() => locks.acquire('a.md', 'task-2')).toThrow(expect.objectContaining({ code: 'ERR_LOCKED', details: { lockedBy: 'task-1' } }))
    expect(() => locks.assertWritable('a.md', undefined)).toThrow(expect.objectContaining({ code: 'ERR_LOCKED' }))
    expect(() => locks.assertWritable('a.md', 'task-1')).not.toThrow()
    expect(() => locks.assertWritable('b.md', 'task-2')).not.toThrow()
  })

  it('renews a lock for the same task', () => {
    const time = clock()
    const locks = new LockManager({ ttlMs: 1000, now: time.now })
    locks.acquire('a.md', 'task-1')
    time.advance(900)
    expect(locks.acquire('a.md', 'task-1').expiresAt).toBe(2900)
  })

  it('lets a lock expire', () => {
    const time = clock()
    const locks = new LockManager({ ttlMs: 1000, now: time.now })
    locks.acquire('a.md', 'task-1')
    time.advance(999)
    expect(locks.get('a.md')?.taskId).toBe('task-1')
    time.advance(1)
    expect(locks.get('a.md')).toBeUndefined()
    expect(locks.acquire('a.md', 'task-2').taskId).toBe('task-2')
  })

  it('releases every live lock of a task and nothing of the others', () => {
    const time = clock()
    const locks = new LockManager({ ttlMs: 1000, now: time.now })
    locks.acquire('a.md', 'task-1')
    locks.acquire('b.md', 'task-1')
    locks.acquire('c.md', 'task-2')
    expect(locks.releaseTask('task-1').sort()).toEqual(['a.md', 'b.md'])
    expect(locks.get('a.md')).toBeUndefined()
    expect(locks.get('c.md')?.taskId).toBe('task-2')
    expect(locks.releaseTask('task-1')).toEqual([])
  })
})
