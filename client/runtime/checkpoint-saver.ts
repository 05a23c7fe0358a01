import type { Checkpoint, CheckpointPatch } from '../../plugin/protocol'

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

/** Where a task's checkpoints go: whole, or (when the server can) only what changed since. */
export interface CheckpointTransport {
  save(checkpoint: CheckpointData): Promise<unknown>
  append?(taskId: string, patch: CheckpointPatch): Promise<unknown>
}

/** A checkpoint is sent whole again once the patches since the last whole one outweigh it (and this floor). */
const WHOLE_AFTER_BYTES = 64 * 1024

type Held = CheckpointPatch['base']

const scheduler = (globalThis as { scheduler?: { postTask?(callback: () => void): Promise<void> } }).scheduler
/**
 * Resolves once the task that asked for a save has run to its end: the agent loop asks for one just
 * before it sends the model or its tools their next request, which should leave first (the save only
 * has to land before a write, or before the loop records the turn after next). Where there is no
 * `scheduler.postTask` (Node, older browsers), at once.
 */
const afterThisTask = (): Promise<void> => (scheduler?.postTask ? scheduler.postTask(() => {}) : Promise.resolve())

/**
 * Saves a task's checkpoints in order. One save runs at a time and at most one waits behind it,
 * taking the latest state when it starts, so a slow server never builds a queue of stale snapshots
 * (step outputs can be large). After a first whole save, a save sends only what changed (new steps
 * and records, the small hash maps, a changed partial text), so a long task does not resend its whole
 * history each step; it is sent whole again when the patches outgrow it, which keeps both the
 * client's and the server's work linear. A save never rejects: failures go to `onFailure`.
 */
export class CheckpointSaver {
  lastSave = 0
  private saving: Promise<void> = Promise.resolve()
  private queued: Promise<void> | null = null
  /** How many steps and records the server holds; null until a save succeeded (or after a refused patch). */
  private held: Held | null = null
  private heldPartial: CheckpointData['partial']
  private wholeBytes = 0
  private patchBytes = 0

  constructor(
    private readonly snapshot: () => CheckpointData,
    private readonly transport: CheckpointTransport,
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
    const queued = this.saving.then(afterThisTask).then(async () => {
      this.queued = null
      try {
        await this.send(this.snapshot())
      } catch (error) {
        this.onFailure(error as Error)
      }
    })
    this.queued = queued
    this.saving = queued
    return queued
  }

  private async send(current: CheckpointData): Promise<void> {
    const counts = { steps: current.steps.length, records: current.records?.length ?? 0 }
    const held = this.held
    if (held && this.transport.append && this.patchBytes <= Math.max(WHOLE_AFTER_BYTES, this.wholeBytes)) {
      const patch = patchOf(current, held, this.heldPartial)
      try {
        await this.transport.append(current.taskId, patch)
        this.patchBytes += JSON.stringify(patch).length
        this.held = counts
        this.heldPartial = current.partial
        return
      } catch (error) {
        // Unreachable: the next save tries again. Refused (no checkpoint there, an older server): it goes whole.
        const status = (error as { status?: number }).status ?? 0
        if (status < 400 || status >= 500) throw error
      }
    }
    this.held = null
    // A copy, so the state the task goes on changing is not what a slow send carries.
    const whole = structuredClone(current)
    await this.transport.save(whole)
    this.wholeBytes = this.transport.append ? JSON.stringify(whole).length : 0
    this.patchBytes = 0
    this.held = counts
    this.heldPartial = current.partial
  }
}

/** What changed since the server's copy: steps and records are append-only, the rest is small or replaced. */
function patchOf(current: CheckpointData, held: Held, heldPartial: CheckpointData['partial']): CheckpointPatch {
  return {
    base: held,
    steps: current.steps.slice(held.steps),
    records: (current.records ?? []).slice(held.records),
    ...(current.partial === heldPartial ? {} : { partial: current.partial ?? null }),
    expectedHashes: { ...current.expectedHashes },
    pendingHashes: { ...current.pendingHashes },
    createdPaths: [...current.createdPaths],
  }
}
