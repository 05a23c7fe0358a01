import { afterEach, describe, expect, it, vi } from 'vitest'
import { createEventBus, eventBus } from '../../../client/event-bus'
import type { MetaBlogEvents } from '../../../client/event-bus'

type TestEvents = { ping: { value: number }; other: { text: string } }

afterEach(() => {
  vi.restoreAllMocks()
})

describe('createEventBus', () => {
  it('delivers payloads to the listeners of that event only', () => {
    const bus = createEventBus<TestEvents>()
    const ping = vi.fn()
    const other = vi.fn()
    bus.on('ping', ping)
    bus.on('other', other)
    bus.emit('ping', { value: 1 })
    expect(ping).toHaveBeenCalledWith({ value: 1 })
    expect(other).not.toHaveBeenCalled()
  })

  it('stops calling a listener once it unsubscribes, and unsubscribing twice is harmless', () => {
    const bus = createEventBus<TestEvents>()
    const listener = vi.fn()
    const unsubscribe = bus.on('ping', listener)
    bus.emit('ping', { value: 1 })
    unsubscribe()
    unsubscribe()
    bus.emit('ping', { value: 2 })
    expect(listener).toHaveBeenCalledTimes(1)
    expect(bus.listenerCount('ping')).toBe(0)
  })

  it('treats the same function added twice as two subscriptions', () => {
    const bus = createEventBus<TestEvents>()
    const listener = vi.fn()
    const first = bus.on('ping', listener)
    bus.on('ping', listener)
    first()
    bus.emit('ping', { value: 1 })
    expect(listener).toHaveBeenCalledTimes(1)
  })

  it('calls a once listener a single time', () => {
    const bus = createEventBus<TestEvents>()
    const listener = vi.fn()
    bus.once('ping', listener)
    bus.emit('ping', { value: 1 })
    bus.emit('ping', { value: 2 })
    expect(listener).toHaveBeenCalledTimes(1)
    expect(listener).toHaveBeenCalledWith({ value: 1 })
  })

  it('lets a once listener be cancelled before it fires', () => {
    const bus = createEventBus<TestEvents>()
    const listener = vi.fn()
    const cancel = bus.once('ping', listener)
    cancel()
    bus.emit('ping', { value: 1 })
    expect(listener).not.toHaveBeenCalled()
  })

  it('keeps calling the rest when a listener unsubscribes itself during emit', () => {
    const bus = createEventBus<TestEvents>()
    const calls: string[] = []
    const unsubscribeFirst = bus.on('ping', () => {
      calls.push('first')
      unsubscribeFirst()
    })
    bus.on('ping', () => calls.push('second'))
    bus.on('ping', () => calls.push('third'))
    bus.emit('ping', { value: 1 })
    bus.emit('ping', { value: 2 })
    expect(calls).toEqual(['first', 'second', 'third', 'second', 'third'])
  })

  it('does not call a listener that an earlier one removed during the same emit', () => {
    const bus = createEventBus<TestEvents>()
    const later = vi.fn()
    bus.on('ping', () => unsubscribeLater())
    const unsubscribeLater = bus.on('ping', later)
    bus.emit('ping', { value: 1 })
    expect(later).not.toHaveBeenCalled()
  })

  it('leaves a listener added during emit for the next emit', () => {
    const bus = createEventBus<TestEvents>()
    const added = vi.fn()
    bus.once('ping', () => {
      bus.on('ping', added)
    })
    bus.emit('ping', { value: 1 })
    expect(added).not.toHaveBeenCalled()
    bus.emit('ping', { value: 2 })
    expect(added).toHaveBeenCalledWith({ value: 2 })
  })

  it('reports a throwing listener and still calls the others', () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => {})
    const bus = createEventBus<TestEvents>()
    const after = vi.fn()
    const failure = new Error('listener broke')
    bus.on('ping', () => {
      throw failure
    })
    bus.on('ping', after)
    expect(() => bus.emit('ping', { value: 1 })).not.toThrow()
    expect(after).toHaveBeenCalledTimes(1)
    expect(error).toHaveBeenCalledWith(expect.stringContaining('"ping"'), failure)
  })

  it('clears one event or all of them', () => {
    const bus = createEventBus<TestEvents>()
    bus.on('ping', () => {})
    bus.on('other', () => {})
    bus.clear('ping')
    expect(bus.listenerCount('ping')).toBe(0)
    expect(bus.listenerCount('other')).toBe(1)
    bus.clear()
    expect(bus.listenerCount('other')).toBe(0)
  })

  it('emitting an event nobody listens to does nothing', () => {
    const bus = createEventBus<TestEvents>()
    expect(() => bus.emit('other', { text: 'x' })).not.toThrow()
  })
})

describe('eventBus', () => {
  it('is a shared bus typed with the MetaBlog events', () => {
    const written: MetaBlogEvents['file:written'][] = []
    const unsubscribe = eventBus.on('file:written', (payload) => written.push(payload))
    eventBus.emit('file:written', { path: 'posts/a.md', hash: 'abc', kind: 'created' })
    unsubscribe()
    eventBus.emit('file:written', { path: 'posts/b.md', hash: null, kind: 'deleted' })
    expect(written).toEqual([{ path: 'posts/a.md', hash: 'abc', kind: 'created' }])
  })
})
