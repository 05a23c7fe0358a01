// Every page write made through the API, with the text it replaced: what an Undo puts back.
import { errorCode } from '../api/errors'
import type { MetaBlogApi } from '../api/metablog-api'
import { createListenerSet } from '../runtime/listener-set'

/** One write: `before` is the text it replaced (null: it created the page; undefined: not known). */
export interface PageWrite {
  path: string
  taskId?: string
  before?: string | null
  /** The page's hash after the write (null: the write deleted it). */
  hash: string | null
  at: number
  /** The error code when the dev server refused the write (ERR_STALE: the page changed meanwhile). */
  refused?: string
}

const REMEMBERED_PAGES = 20

/**
 * Wraps the dev-server API: remembers the last text read of each page and, when a write replaces
 * exactly that version, reports the write with the text it replaced.
 */
export class PageWrites {
  private readonly reads = new Map<string, { hash: string; content: string }>()
  private readonly listeners = createListenerSet<PageWrite>('page write')
  /** The API the journal wraps, for the writes the panel makes itself (Undo, Insert). */
  api: MetaBlogApi | null = null

  wrap(api: MetaBlogApi): MetaBlogApi {
    this.api = api
    return {
      ...api,
      readFile: async (path, options) => {
        const file = await api.readFile(path, options)
        this.remember(path, file.hash, file.content)
        return file
      },
      writeFile: async (path, content, expectedHash, options) => {
        const before = expectedHash === null ? null : this.textOf(path, expectedHash)
        const written = await this.reporting(path, options?.taskId, () => api.writeFile(path, content, expectedHash, options))
        this.remember(path, written.hash, content)
        this.listeners.emit({ path, taskId: options?.taskId, before, hash: written.hash, at: Date.now() })
        return written
      },
      deleteFile: async (path, expectedHash, options) => {
        const before = this.textOf(path, expectedHash)
        const deleted = await this.reporting(path, options?.taskId, () => api.deleteFile(path, expectedHash, options))
        this.reads.delete(path)
        this.listeners.emit({ path, taskId: options?.taskId, before, hash: null, at: Date.now() })
        return deleted
      },
    }
  }

  /** Calls `listener` for each write that can be undone; returns the unsubscribe. */
  onWrite(listener: (write: PageWrite) => void): () => void {
    return this.listeners.add(listener)
  }

  /** Runs a write; a refusal is reported (with its code) before it is thrown on. */
  private async reporting<T>(path: string, taskId: string | undefined, write: () => Promise<T>): Promise<T> {
    try {
      return await write()
    } catch (error) {
      const code = errorCode(error)
      // A stopped request is not an outcome: the task was cancelled, not the write refused.
      if (code !== 'ERR_ABORTED') this.listeners.emit({ path, taskId, hash: null, at: Date.now(), refused: code ?? 'ERR_INTERNAL' })
      throw error
    }
  }

  private textOf(path: string, hash: string): string | null | undefined {
    const read = this.reads.get(path)
    return read?.hash === hash ? read.content : undefined
  }

  private remember(path: string, hash: string, content: string): void {
    this.reads.delete(path)
    this.reads.set(path, { hash, content })
    // The oldest page read goes first: a task reads a handful of pages.
    if (this.reads.size > REMEMBERED_PAGES) this.reads.delete(this.reads.keys().next().value!)
  }
}
