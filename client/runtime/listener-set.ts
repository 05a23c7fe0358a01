// The one subscription primitive behind the event bus, the state machine, the cost tracker and the logger.

export type Listener<T> = (value: T) => void

export interface ListenerSet<T> {
  /** Adds a listener; the returned function removes it (calling it twice is harmless). */
  add(listener: Listener<T>): () => void
  /** Calls every listener; a throwing listener is reported and the others still run. */
  emit(value: T): void
  clear(): void
  readonly size: number
}

/**
 * `label` names the source in error reports, e.g. `event "file:written"`.
 * Each `add` gets its own entry, so adding one function twice needs two unsubscribes.
 */
export function createListenerSet<T>(label: string): ListenerSet<T> {
  const entries = new Set<{ listener: Listener<T> }>()

  return {
    add(listener) {
      const entry = { listener }
      entries.add(entry)
      return () => {
        entries.delete(entry)
      }
    },
    emit(value) {
      // Walk a copy so listeners added during emit wait for the next one, and skip entries removed
      // meanwhile so an unsubscribed listener is never called again.
      for (const entry of [...entries]) {
        if (!entries.has(entry)) continue
        try {
          entry.listener(value)
        } catch (error) {
          console.error(`[metablog] a listener for ${label} threw; the other listeners still ran.`, error)
        }
      }
    },
    clear() {
      entries.clear()
    },
    get size() {
      return entries.size
    },
  }
}
