/**
 * Runs a key's work once its file's watcher events have been quiet for a while. The watcher
 * (chokidar) reports one change a file per 50 ms and drops the others, and an editor that saves in
 * place truncates the file, then writes it: the one event reported can be read before the write,
 * and the write's own event is dropped. Work run after the quiet spell sees the file as it was left.
 */
/** How long a file's events must be quiet before its work runs: longer than chokidar's 50 ms per file. */
export const SETTLE_MS = 150

export class SettleTimers {
  private readonly timers = new Map<string, NodeJS.Timeout>()
  private closed = false

  constructor(private readonly quietMs: number = SETTLE_MS) {}

  /** An event for `key`: `work` runs `quietMs` after the last one, instead of any work given before. */
  poke(key: string, work: () => void): void {
    if (this.closed) return
    clearTimeout(this.timers.get(key))
    const timer = setTimeout(() => {
      this.timers.delete(key)
      work()
    }, this.quietMs)
    timer.unref()
    this.timers.set(key, timer)
  }

  /** Drops the work still to come, and any poked later: the dev server is closing. */
  close(): void {
    this.closed = true
    for (const timer of this.timers.values()) clearTimeout(timer)
    this.timers.clear()
  }
}
