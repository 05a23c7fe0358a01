import { constants } from 'node:fs'
import fs from 'node:fs/promises'
import path from 'node:path'
import type { Checkpoint } from '../plugin/protocol.js'
import { removeStaleTempFiles, writeFileAtomic } from './atomic-write.js'
import { checkPatch, foldCheckpoint, patchLine } from './checkpoint-log.js'
import { folderNames, removeFile } from './folder-names.js'
import { MetaBlogError, isErrnoException } from './errors.js'
import { KeyedMutex } from './keyed-mutex.js'

export const CHECKPOINT_MAX_AGE_MS = 24 * 60 * 60_000
const TASK_ID = /^[A-Za-z0-9_-]{1,100}$/

export interface CheckpointStoreOptions {
  folder: string
  maxAgeMs?: number
  now?: () => number
  warn?: (message: string) => void
}

export function checkTaskId(taskId: unknown): string {
  if (typeof taskId !== 'string' || !TASK_ID.test(taskId)) {
    throw new MetaBlogError(
      'ERR_BAD_REQUEST',
      'A taskId must be 1–100 letters, digits, "-" or "_".',
    )
  }
  return taskId
}

function checkCheckpoint(taskId: string, value: unknown): Checkpoint {
  const candidate = value as Partial<Checkpoint> | null
  if (
    typeof candidate !== 'object' || candidate === null ||
    typeof candidate.skill !== 'string' ||
    !Array.isArray(candidate.steps) ||
    typeof candidate.inputs !== 'object' || candidate.inputs === null
  ) {
    throw new MetaBlogError('ERR_BAD_REQUEST', 'A checkpoint needs at least {skill, inputs, steps}.')
  }
  return {
    title: '',
    expectedHashes: {},
    createdPaths: [],
    totalSteps: candidate.steps.length,
    ...candidate,
    taskId,
  } as Checkpoint
}

/** Resumable task state, one file per task (a checkpoint and the patches since, see checkpoint-log.ts) in a folder the file watcher ignores. */
export class CheckpointStore {
  private readonly folder: string
  private readonly maxAgeMs: number
  private readonly now: () => number
  private readonly warn: (message: string) => void
  // One queue for the whole folder: list() moves and deletes files that save() and delete() write.
  private readonly mutex = new KeyedMutex()

  constructor(options: CheckpointStoreOptions) {
    this.folder = options.folder
    this.maxAgeMs = options.maxAgeMs ?? CHECKPOINT_MAX_AGE_MS
    this.now = options.now ?? Date.now
    this.warn = options.warn ?? ((message) => console.warn(message))
  }

  private fileOf(taskId: string): string {
    return path.join(this.folder, `${checkTaskId(taskId)}.json`)
  }

  private serialized<T>(task: () => Promise<T>): Promise<T> {
    return this.mutex.run(this.folder, task)
  }

  async save(taskId: string, value: unknown): Promise<Checkpoint> {
    const checkpoint = { ...checkCheckpoint(checkTaskId(taskId), value), updatedAt: this.now() }
    return this.serialized(async () => {
      // Not flushed: a checkpoint must outlive the dev server (the rename sees to that); one lost to a
      // power cut costs a repeated step, never a page, and an fsync per step would dominate the agent loop.
      await writeFileAtomic(this.fileOf(taskId), JSON.stringify(checkpoint), { durable: false })
      return checkpoint
    })
  }

  /**
   * Appends what changed since the saves the file holds: one append, no rewrite of the history.
   * ERR_NOT_FOUND when there is no checkpoint to append to (the client then saves it whole).
   */
  async append(taskId: string, value: unknown): Promise<{ taskId: string; updatedAt: number }> {
    const file = this.fileOf(taskId)
    const updatedAt = this.now()
    const line = patchLine(checkPatch(value), updatedAt)
    return this.serialized(async () => {
      let handle
      try {
        // Append only: never create, so a patch cannot stand without the checkpoint it continues.
        handle = await fs.open(file, constants.O_WRONLY | constants.O_APPEND)
      } catch (error) {
        if (!isErrnoException(error) || error.code !== 'ENOENT') throw error
        throw new MetaBlogError('ERR_NOT_FOUND', `There is no checkpoint for task ${taskId} to add to: save it whole with PUT /checkpoints/${taskId}.`)
      }
      try {
        await handle.write(line)
      } finally {
        await handle.close()
      }
      return { taskId, updatedAt }
    })
  }

  async delete(taskId: string): Promise<boolean> {
    const file = this.fileOf(taskId)
    return this.serialized(() => removeFile(file))
  }

  /** Live checkpoints, newest first; drops expired ones, moves corrupt files aside, skips unreadable ones. */
  list(): Promise<Checkpoint[]> {
    return this.serialized(async () => {
      const names = await folderNames(this.folder)
      const checkpoints: Checkpoint[] = []
      for (const name of names) {
        if (!name.endsWith('.json')) continue
        const taskId = name.slice(0, -'.json'.length)
        if (!TASK_ID.test(taskId)) continue
        // One bad entry (a folder, a file we may not read) must not hide every other task.
        try {
          const checkpoint = await this.load(taskId)
          if (!checkpoint) continue
          if (this.now() - checkpoint.updatedAt > this.maxAgeMs) await removeFile(this.fileOf(taskId))
          else checkpoints.push(checkpoint)
        } catch (error) {
          this.warn(`[metablog] skipped checkpoint ${name}: ${isErrnoException(error) ? error.code : (error as Error).message}.`)
        }
      }
      return checkpoints.sort((a, b) => b.updatedAt - a.updatedAt)
    })
  }

  /** Removes temp files left by checkpoint writes that were killed mid-way (older than `minAgeMs`). */
  removeStaleTempFiles(minAgeMs?: number): Promise<number> {
    return removeStaleTempFiles(this.folder, minAgeMs)
  }

  private async load(taskId: string): Promise<Checkpoint | null> {
    const file = this.fileOf(taskId)
    let text: string
    try {
      text = await fs.readFile(file, 'utf8')
    } catch (error) {
      if (isErrnoException(error) && error.code === 'ENOENT') return null
      throw error
    }
    try {
      return foldCheckpoint(text, (value) => {
        const checkpoint = checkCheckpoint(taskId, value)
        if (typeof checkpoint.updatedAt !== 'number') throw new Error('no updatedAt')
        return checkpoint
      })
    } catch {
      await this.moveAside(file)
      return null
    }
  }

  private async moveAside(file: string): Promise<void> {
    const aside = `${file}.corrupt-${this.now()}`
    try {
      await fs.rename(file, aside)
    } catch (error) {
      // Already gone (deleted or moved meanwhile): nothing left to set aside.
      if (isErrnoException(error) && error.code === 'ENOENT') return
      throw error
    }
    this.warn(`[metablog] checkpoint ${path.basename(file)} was corrupt and has been moved aside to ${path.basename(aside)}.`)
  }
}
