import fs from 'node:fs/promises'
import path from 'node:path'
import type { FileChangeKind, FileChangedPayload } from './protocol.js'
import { isErrnoException } from '../server/errors.js'
import { hashContent } from '../server/hash.js'
import { parsePageMeta } from '../server/page-meta.js'
import { checkPagePath } from '../server/safe-path.js'

export interface PageChange extends FileChangedPayload {
  /** The page's content after the change; null when deleted. */
  content: string | null
}

type Listener = (change: PageChange) => void | Promise<void>

/**
 * One stream of page changes, whoever made them: writes through the API and edits in the
 * author's own editor (seen by the file watcher). A change already reported is not reported twice.
 */
export class PageChangeFeed {
  private readonly listeners: Listener[] = []
  private readonly lastHash = new Map<string, string | null>()

  constructor(private readonly sourceDir: string) {}

  subscribe(listener: Listener): () => void {
    this.listeners.push(listener)
    return () => {
      const index = this.listeners.indexOf(listener)
      if (index !== -1) this.listeners.splice(index, 1)
    }
  }

  async pageWritten(relativePath: string, kind: FileChangeKind, content: string | null): Promise<void> {
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
    for (const listener of [...this.listeners]) await listener(change)
  }

  /** Feeds a file-watcher event; ignores anything that is not a page of the site. */
  async fileEvent(event: string, absolutePath: string): Promise<void> {
    const relativePath = path.relative(this.sourceDir, absolutePath).split(path.sep).join('/')
    try {
      checkPagePath(relativePath)
    } catch {
      return
    }
    if (event === 'unlink') return this.pageWritten(relativePath, 'deleted', null)
    if (event !== 'add' && event !== 'change') return
    let content: string
    try {
      content = await fs.readFile(absolutePath, 'utf8')
    } catch (error) {
      if (isErrnoException(error) && error.code === 'ENOENT') return this.pageWritten(relativePath, 'deleted', null)
      throw error
    }
    const known = this.lastHash.has(relativePath) && this.lastHash.get(relativePath) !== null
    await this.pageWritten(relativePath, event === 'add' && !known ? 'created' : 'updated', content)
  }
}
