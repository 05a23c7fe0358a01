/** Waits this long after the last change before asking: a save burst makes one request. */
export const REFRESH_DELAY_MS = 200

/**
 * A debounced refresh whose answers are applied in request order: an answer older than the latest
 * request is dropped, so a slow response never replaces a newer graph. A failed load keeps what
 * was there; the next change tries again.
 */
export function createLatestRefresh<T>(load: () => Promise<T | null>, apply: (value: T) => void, delayMs = REFRESH_DELAY_MS) {
  let timer: ReturnType<typeof setTimeout> | undefined
  let latest = 0

  async function now(): Promise<void> {
    const request = ++latest
    try {
      const value = await load()
      if (value !== null && request === latest) apply(value)
    } catch {
      // Keep the value we have.
    }
  }

  return {
    /** Refreshes after `delayMs` without another call. */
    schedule(): void {
      clearTimeout(timer)
      timer = setTimeout(() => void now(), delayMs)
    },
    now,
    cancel(): void {
      clearTimeout(timer)
      latest++
    },
  }
}
