import { MetaBlogError } from './errors.js'

export interface Lock {
  path: string
  taskId: string
  expiresAt: number
}

export interface LockManagerOptions {
  /** How long a lock lasts unless renewed. */
  ttlMs?: number
  now?: () => number
}

export const DEFAULT_LOCK_TTL_MS = 5 * 60_000

/** Per-task page locks that expire on their own, so a crashed task never blocks a page for good. */
export class LockManager {
  private readonly locks = new Map<string, Lock>()
  private readonly ttlMs: number
  private readonly now: () => number

  constructor(options: LockManagerOptions = {}) {
    this.ttlMs = options.ttlMs ?? DEFAULT_LOCK_TTL_MS
    this.now = options.now ?? Date.now
  }

  /** The live lock on a page, if any. */
  get(path: string): Lock | undefined {
    const lock = this.locks.get(path)
    if (lock && lock.expiresAt <= this.now()) {
      this.locks.delete(path)
      return undefined
    }
    return lock
  }

  /** Takes or renews the lock of `taskId` on a page; throws ERR_LOCKED if another task holds it. */
  acquire(path: string, taskId: string): Lock {
    this.assertWritable(path, taskId)
    const lock = { path, taskId, expiresAt: this.now() + this.ttlMs }
    this.locks.set(path, lock)
    return lock
  }

  /** Throws ERR_LOCKED unless the page is free or locked by `taskId`. */
  assertWritable(path: string, taskId: string | undefined): void {
    const lock = this.get(path)
    if (lock && lock.taskId !== taskId) {
      const seconds = Math.max(1, Math.ceil((lock.expiresAt - this.now()) / 1000))
      throw new MetaBlogError(
        'ERR_LOCKED',
        `${path} is locked by task ${lock.taskId} for up to ${seconds}s more. ` +
          'Wait for that task to finish or stop it, then try again.',
        { lockedBy: lock.taskId },
      )
    }
  }

  /** Releases every lock held by a task and returns the pages it held. */
  releaseTask(taskId: string): string[] {
    const released: string[] = []
    for (const [path, lock] of this.locks) {
      if (lock.taskId === taskId) {
        this.locks.delete(path)
        if (lock.expiresAt > this.now()) released.push(path)
      }
    }
    return released
  }
}
