// The runtime's changes to what the panel shows, applied once a frame instead of as they happen: a step
// of the agent loop reports a tool row, its result and the progress line, and Vue re-rendering the panel
// for each would run before the loop's next request leaves (Vue renders in the same task, right after
// the change). Batched, the request leaves first and the panel renders once, with the frame.

export interface FrameBatch {
  /** Runs `change` with the next frame, after the changes deferred before it. */
  defer(change: () => void): void
  /** Runs the deferred changes now, in order (also those they defer in turn). */
  flush(): void
}

/** A hidden tab draws no frames: its changes still land within this long. */
const WITHOUT_FRAMES_MS = 100

export function createFrameBatch(): FrameBatch {
  const pending: (() => void)[] = []
  let frame: number | undefined
  let timer: ReturnType<typeof setTimeout> | undefined
  let flushing = false

  function flush(): void {
    if (flushing) return
    if (frame !== undefined) cancelAnimationFrame(frame)
    clearTimeout(timer)
    frame = timer = undefined
    flushing = true
    for (let change = pending.shift(); change; change = pending.shift()) {
      try {
        change()
      } catch (error) {
        // One broken update must not hold back the ones after it.
        console.error('[metablog] a panel update failed', error)
      }
    }
    flushing = false
  }

  return {
    defer(change) {
      pending.push(change)
      if (flushing || pending.length > 1) return
      const frames = typeof requestAnimationFrame === 'function'
      if (frames) frame = requestAnimationFrame(flush)
      timer = setTimeout(flush, frames ? WITHOUT_FRAMES_MS : 0)
    },
    flush,
  }
}
