// The runtime's changes to what the panel shows, applied once a frame instead of as they happen: a step
// of the agent loop reports a tool row, its result and the progress line, and Vue re-rendering the panel
// for each would run before the loop's next request leaves (Vue renders in the same task, right after
// the change). Batched, the request leaves first and the panel renders once, with the frame.

export interface FrameBatch {
  /** Runs `change` with the next frame, after the changes deferred before it. */
  defer(change: () => void): void
  /** Runs the deferred changes now, in order (also those they defer in turn). */
  flush(): void
  /**
   * Keeps the deferred changes for a later frame until the returned release is called (or HOLD_MAX_MS
   * has passed): while the loop waits a few milliseconds for its tools, a frame of the panel would
   * only delay their answers and the next request.
   */
  hold(): () => void
}

/** A hidden tab draws no frames: its changes still land within this long. */
const WITHOUT_FRAMES_MS = 100
/** A hold never keeps the panel still longer than this: a slow tool's row still shows while it runs. */
export const HOLD_MAX_MS = 100

export function createFrameBatch(): FrameBatch {
  const pending: (() => void)[] = []
  let frame: number | undefined
  let timer: ReturnType<typeof setTimeout> | undefined
  let flushing = false
  let holds = 0
  let heldSince = 0

  function onFrame(): void {
    if (holds > 0 && performance.now() - heldSince < HOLD_MAX_MS) frame = requestAnimationFrame(onFrame)
    else flush()
  }

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
      if (frames) frame = requestAnimationFrame(onFrame)
      timer = setTimeout(flush, frames ? WITHOUT_FRAMES_MS : 0)
    },
    flush,
    hold() {
      if (holds++ === 0) heldSince = performance.now()
      let released = false
      return () => {
        if (released) return
        released = true
        holds--
      }
    },
  }
}
