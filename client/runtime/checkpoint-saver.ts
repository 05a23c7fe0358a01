import type { Checkpoint } from '../../plugin/protocol'

export type CheckpointData = Omit<Checkpoint, 'updatedAt'>

/** A running task saves its checkpoint at least this often (its heartbeat), so other tabs can tell it is alive. */
export const HEARTBEAT_MS = 5_000

/** A checkpoint saved this recently (within three heartbeats) may belong to a task still running in another tab. */
export const RUNNING_ELSEWHERE_MS = 15_000

/** Whether the checkpoint's task may still be running somewhere: it was saved within RUNNING_ELSEWHERE_MS. */
export function savedRecently(checkpoint: Pick<Checkpoint, 'updatedAt'>, now: number): boolean {
  return now - checkpoint.updatedAt < RUNNING_ELSEWHERE_MS
}

/**
 * Saves a running task's checkpoint every HEARTBEAT_MS, even while it waits for the author, so
 * other tabs see it is alive. `stop()` says how many beats were sent.
 */
export function startHeartbeat(save: () => void, finished: () => boolean): { stop(): number } {
  let beats = 0
  const timer = setInterval(() => {
    if (finished()) return
    beats++
    save()
  }, HEARTBEAT_MS)
  return {
    stop() {
      clearInterval(timer)
      return beats
    },
  }
}

/**
 * Saves a task's checkpoints in order. One save runs at a time and at most one waits behind it,
 * taking the latest state when it starts, so a slow server never builds a queue of stale snapshots
 * (step outputs can be large). A save never rejects: failures go to `onFailure`.
 */
export class CheckpointSaver {
  lastSave = 0
  private saving: Promise<void> = Promise.resolve()
  private queued: Promise<void> | null = null

  constructor(
    private readonly snapshot: () => CheckpointData,
    private readonly send: (checkpoint: CheckpointData) => Promise<unknown>,
    private readonly onFailure: (error: Error) => void,
  ) {}

  /** Resolves when no save is running or waiting. */
  settled(): Promise<void> {
    return this.saving
  }

  /** Resolves once a state at least as new as the current one was sent (or failed to be). */
  save(): Promise<void> {
    this.lastSave = Date.now()
    if (this.queued) return this.queued
    const queued = this.saving.then(async () => {
      this.queued = null
      try {
        await this.send(structuredClone(this.snapshot()))
      } catch (error) {
        this.onFailure(error as Error)
      }
    })
    this.queued = queued
    this.saving = queued
    return queued
  }
}
