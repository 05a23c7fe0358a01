import { monitorEventLoopDelay, performance } from 'node:perf_hooks'

export interface LoopWatch {
  /** The longest the event loop was blocked since the watch began, in ms. */
  maxDelayMs(): number
  stop(): void
}

/** Watches how long this process's event loop stalls (the dev server shares it with the tests). */
export function watchEventLoop(): LoopWatch {
  const histogram = monitorEventLoopDelay({ resolution: 5 })
  histogram.enable()
  return {
    maxDelayMs: () => histogram.max / 1e6,
    stop: () => histogram.disable(),
  }
}

/**
 * Waits until the event loop has stayed responsive for `quietMs` (a fresh dev server keeps
 * it busy for a while: dependency optimisation, first renders). Gives up after `timeoutMs`.
 */
export async function waitForQuietEventLoop({ quietMs = 300, stallMs = 20, timeoutMs = 5000 } = {}): Promise<boolean> {
  const deadline = performance.now() + timeoutMs
  while (performance.now() < deadline) {
    const watch = watchEventLoop()
    await new Promise((resolve) => setTimeout(resolve, quietMs))
    const quiet = watch.maxDelayMs() < stallMs
    watch.stop()
    if (quiet) return true
  }
  return false
}
