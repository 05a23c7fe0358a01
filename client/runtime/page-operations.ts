// Pages as skills and tools see them: the hash of every read is recorded and guards the write
// (which the task run locks first), and ERR_STALE is interpreted here: a conflict card for a
// skill's checked write, a "read it again" error for a tool.
import { ClientError, errorCode } from '../api/errors'
import type { SkillContext } from './types'

export interface CheckedWrite {
  path: string
  /** The full new page. */
  content: string
  /** The hash the task read (null: the page must not exist yet): the write happens only if the page is still that version. */
  hash: string | null
  /** What the conflict card asks when the page changed meanwhile. */
  conflict: string
  /** The same change made to the page's current text, for a re-apply; null if it no longer fits. */
  reapply(current: string): string | null
}

export type CheckedWriteResult =
  | { outcome: 'written'; hash: string }
  | { outcome: 'reapplied'; hash: string }
  | { outcome: 'dropped' }
  | { outcome: 'no-longer-fits' }

export interface ReadPage {
  path: string
  content: string
  hash: string
}

export interface PageOperations {
  /** Reads a page and records its hash: a later update must match it. */
  readPage(path: string): Promise<ReadPage>
  /** The version this task last read of a page, in this run; undefined after a resume or before a read. */
  lastRead(path: string): ReadPage | undefined
  /** The hash this task expects for a page (kept across a resume); null when it never read it. */
  expectedHash(path: string): string | null
  /** Replaces a page the task read, only if it is still the version read; else ERR_STALE. */
  updatePage(path: string, content: string): Promise<{ hash: string }>
  /** Creates a new page; ERR_EXISTS when there is one already (never an overwrite). */
  createPage(path: string, content: string): Promise<{ hash: string }>
  /** Deletes a page the task read, only if it is still the version read. */
  deletePage(path: string): Promise<void>
  /**
   * Writes with the hash the task read; if the author changed the page meanwhile, the conflict card
   * lets them drop the change or re-apply it to their version (written with its hash).
   */
  writeChecked(write: CheckedWrite): Promise<CheckedWriteResult>
}

/** The one reading of a stale write: the author (or another task) changed the page after it was read. */
export function staleError(path: string): ClientError {
  return new ClientError('ERR_STALE', `${path} changed after it was read (the author may have edited it). Read it again and redo the change on its current text.`)
}

export function createPageOperations(context: Omit<SkillContext, 'pages'>): PageOperations {
  const reads = new Map<string, ReadPage>()

  async function guarded<T>(path: string, write: () => Promise<T>): Promise<T> {
    try {
      return await write()
    } catch (error) {
      if (errorCode(error) === 'ERR_STALE') throw staleError(path)
      throw error
    }
  }

  return {
    async readPage(path) {
      const { content, hash } = await context.api.readFile(path, { signal: context.signal })
      context.expectHash(path, hash)
      const page = { path, content, hash }
      reads.set(path, page)
      return page
    },
    lastRead: (path) => reads.get(path),
    expectedHash: (path) => context.expectedHash(path),
    async updatePage(path, content) {
      const expected = context.expectedHash(path)
      if (expected === null) throw new ClientError('ERR_NOT_READ', `Read ${path} before changing it, so a change by the author is never overwritten.`)
      const hash = await guarded(path, () => context.writePage(path, content, expected))
      reads.set(path, { path, content, hash })
      return { hash }
    },
    async createPage(path, content) {
      let hash: string
      try {
        hash = await context.writePage(path, content, null)
      } catch (error) {
        if (errorCode(error) !== 'ERR_STALE') throw error
        throw new ClientError('ERR_EXISTS', `${path} already exists. Pick another path, or read it and edit it instead.`)
      }
      context.markCreated(path)
      reads.set(path, { path, content, hash })
      return { hash }
    },
    async deletePage(path) {
      const expected = context.expectedHash(path)
      if (expected === null) throw new ClientError('ERR_NOT_READ', `Read ${path} before deleting it.`)
      await guarded(path, () => context.api.deleteFile(path, expected, { signal: context.signal, taskId: context.taskId }))
      context.expectHash(path, null)
      reads.delete(path)
    },
    async writeChecked(write) {
      try {
        return { outcome: 'written', hash: await context.writePage(write.path, write.content, write.hash) }
      } catch (error) {
        if (errorCode(error) !== 'ERR_STALE') throw error
      }
      if ((await context.resolveConflict(write.path, write.conflict)) === 'drop') return { outcome: 'dropped' }
      const fresh = await context.api.readFile(write.path, { signal: context.signal })
      const updated = write.reapply(fresh.content)
      if (updated === null) return { outcome: 'no-longer-fits' }
      return { outcome: 'reapplied', hash: await context.writePage(write.path, updated, fresh.hash) }
    },
  }
}
