import type { ServerResponse } from 'node:http'

/** Why an exchange stopped before its upstream finished. */
export type StopReason = 'page' | 'server' | 'idle'

/**
 * One page request and its upstream call. The upstream is aborted the moment the page
 * disconnects, the dev server closes, or the upstream stays silent past the idle limit.
 */
export class Exchange {
  private readonly controller = new AbortController()
  private idleTimer: NodeJS.Timeout | undefined
  stopped: StopReason | null = null

  constructor(
    private readonly response: ServerResponse,
    private readonly idleTimeoutMs: number,
  ) {
    response.on('close', this.onClose)
    // The page may have left while the gate was still reading its body.
    if (response.destroyed || response.socket?.destroyed) this.stop('page')
  }

  get signal(): AbortSignal {
    return this.controller.signal
  }

  stop(reason: StopReason): void {
    if (this.stopped) return
    this.stopped = reason
    clearTimeout(this.idleTimer)
    this.controller.abort(new Error(`metablog: ${reason}`))
  }

  /** Starts or restarts the idle clock: call when an attempt begins and on every chunk. */
  touch(): void {
    if (this.idleTimer) this.idleTimer.refresh()
    else this.idleTimer = setTimeout(() => this.stop('idle'), this.idleTimeoutMs)
  }

  /** Stops the idle clock, e.g. while backing off before a retry. */
  pause(): void {
    clearTimeout(this.idleTimer)
    this.idleTimer = undefined
  }

  dispose(): void {
    this.pause()
    this.response.off('close', this.onClose)
  }

  private readonly onClose = () => {
    if (!this.response.writableFinished) this.stop('page')
  }
}
