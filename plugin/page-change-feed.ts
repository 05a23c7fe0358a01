import fs from 'node:fs/promises'
import path from 'node:path'
import type { FileChangeKind, FileChangedPayload } from './protocol.js'
import { isErrnoException } from '../server/errors.js'
import { hashContent } from '../server/hash.js'
import { KeyedMutex } from '../server/keyed-mutex.js'
import { parsePageMeta } from '../server/page-meta.js'
import { resolvePagePath, type SafePath } from '../server/safe-path.js'
import { SettleTimers } from './settle-timers.js'

export interface PageChange extends FileChangedPayload {
  /** The page's content after the change; null when deleted. */
  content: string | null
}

type Listener = (change: PageChange) => void | Promise<void>

export interface PageChangeFeedOptions {
  /** Where a failing listener is reported. Default console.error. */
  logError?: (message: string) => void
  /** Reads a page for a watcher event; tests slow it down. Default fs.readFile as UTF-8. */
  readPage?: (absolutePath: string) => Promise<string>
  /** How long after a page's last watcher event it is read once more (see SettleTimers). Default SETTLE_MS. */
  settleMs?: number
}

/**
 * One stream of page changes, whoever made them: writes through the API and edits in the
 * author's own editor (seen by the file watcher). A change already reported is not reported twice.
 */
export class PageChangeFeed {
  private readonly listeners: Listener[] = []
  private readonly lastHash = new Map<string, string | null>()
  // One change per page at a time, so a slow read can never land after a newer change and undo it.
  private readonly mutex = new KeyedMutex()
  private readonly logError: (message: string) => void
  private readonly readPage: (absolutePath: string) => Promise<string>
  /** Each page is read once more when its watcher events settle (see SettleTimers). */
  private readonly settling: SettleTimers

  constructor(
    private readonly sourceDir: string,
    options: PageChangeFeedOptions = {},
  ) {
    this.logError = options.logError ?? ((message) => console.error(message))
    this.readPage = options.readPage ?? ((absolutePath) => fs.readFile(absolutePath, 'utf8'))
    this.settling = new SettleTimers(options.settleMs)
  }

  subscribe(listener: Listener): () => void {
    this.listeners.push(listener)
    return () => {
      const index = this.listeners.indexOf(listener)
      if (index !== -1) this.listeners.splice(index, 1)
    }
  }

  /**
   * Reports a change made through the API. Resolves once every listener has run (so the index is
   * current when the write is answered); a listener that fails is logged and never fails the write.
   */
  pageWritten(relativePath: string, kind: FileChangeKind, content: string | null): Promise<void> {
    return this.mutex.run(relativePath, () => this.publish(relativePath, kind, content))
  }

  /**
   * Feeds a file-watcher event; ignores anything that is not a page of the site. The path rule is
   * the one /files applies (resolvePagePath): a file reached through a symlink that leaves the
   * source folder, or in a dot-folder, is no page; one reached through a symlink inside it is
   * reported under the name it leads to, as /files names it.
   */
  async fileEvent(event: string, absolutePath: string): Promise<void> {
    if (event !== 'add' && event !== 'change' && event !== 'unlink') return
    let page: SafePath
    try {
      page = await resolvePagePath(this.sourceDir, path.relative(this.sourceDir, absolutePath).split(path.sep).join('/'))
    } catch {
      return
    }
    if (event !== 'unlink') {
      this.settling.poke(page.relative, () => {
        this.read(page, 'change').catch((error: Error) => this.logError(`[metablog] reading ${page.relative} again failed: ${error.message}`))
      })
    }
    await this.read(page, event)
  }

  /** Stops the reads still to come; the dev server is closing. */
  close(): void {
    this.settling.close()
  }

  private read(page: SafePath, event: 'add' | 'change' | 'unlink'): Promise<void> {
    // The read happens inside the page's turn: what it sees is at least as new as every change before.
    return this.mutex.run(page.relative, async () => {
      let content: string | null
      try {
        content = event === 'unlink' ? null : await this.readPage(page.absolute)
      } catch (error) {
        if (!isErrnoException(error) || error.code !== 'ENOENT') throw error
        content = null
      }
      if (content === null) return this.publish(page.relative, 'deleted', null)
      const known = this.lastHash.has(page.relative) && this.lastHash.get(page.relative) !== null
      await this.publish(page.relative, event === 'add' && !known ? 'created' : 'updated', content)
    })
  }

  private async publish(relativePath: string, kind: FileChangeKind, content: string | null): Promise<void> {
    const hash = content === null ? null : hashContent(content)
    if (this.lastHash.has(relativePath) && this.lastHash.get(relativePath) === hash) return
    this.lastHash.set(relativePath, hash)
    const change: PageChange = {
      path: relativePath,
      kind,
      hash,
      title: content === null ? null : parsePageMeta(relativePath, content).title,
      content,
    }
    for (const listener of [...this.listeners]) {
      try {
        await listener(change)
      } catch (error) {
        this.logError(`[metablog] updating after the change to ${relativePath} failed: ${(error as Error)?.stack ?? String(error)}`)
      }
    }
  }
}
