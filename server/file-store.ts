import fsSync, { constants as fsConstants } from 'node:fs'
import fs from 'node:fs/promises'
import path from 'node:path'
import type { PageSummary } from '../plugin/protocol.js'
import { removeStaleTempFiles, writeFileAtomic } from './atomic-write.js'
import { guardContent, type Neutralization } from './content-guard/index.js'
import { MetaBlogError, isErrnoException } from './errors.js'
import { hashContent } from './hash.js'
import { KeyedMutex } from './keyed-mutex.js'
import { listPageFiles, listPagePaths, readPages } from './knowledge/load-pages.js'
import type { LockManager } from './locks.js'
import { parsePageMeta } from './page-meta.js'
import { resolvePagePath } from './safe-path.js'

export interface StoredFile {
  path: string
  content: string
  hash: string
}

/** What the caller believes about the file: `{ ifMatch }` for an update, `{ ifNoneMatch: '*' }` for a create. */
export interface WritePrecondition {
  ifMatch?: string
  ifNoneMatch?: '*'
}

export interface WriteResult {
  path: string
  hash: string
  created: boolean
  previousHash: string | null
  /** The text stored: the one sent, with what the content guard made inert rewritten. */
  content: string
  /** What the content guard made inert, by line; empty when the text was stored as sent. */
  neutralized: Neutralization[]
}

export interface FileStoreOptions {
  sourceDir: string
  locks: LockManager
}

// fatal: a page in another encoding is refused rather than silently mangled on the next write.
// ignoreBOM: a byte-order mark stays in the text, as fs.readFile(…, 'utf8') keeps it.
const UTF8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true })

/** Reads and writes the site's Markdown pages safely: checked paths, preconditions, locks, atomic writes. */
export class FileStore {
  readonly sourceDir: string
  private readonly locks: LockManager
  private readonly mutex = new KeyedMutex()
  /** Each page's last summary with its file's stamp then: an unchanged page is not read and hashed again. */
  private summaries = new Map<string, CachedSummary>()

  constructor(options: FileStoreOptions) {
    this.sourceDir = options.sourceDir
    this.locks = options.locks
  }

  async read(pagePath: unknown): Promise<StoredFile> {
    const { relative, absolute } = await resolvePagePath(this.sourceDir, pagePath)
    const content = await readPage(absolute, relative)
    if (content === null) {
      throw new MetaBlogError('ERR_NOT_FOUND', `${relative} does not exist. Check the path, or create it with If-None-Match: *.`)
    }
    return { path: relative, content, hash: hashContent(content) }
  }

  async write(pagePath: unknown, content: string, precondition: WritePrecondition, taskId?: string): Promise<WriteResult> {
    const { relative, absolute } = await resolvePagePath(this.sourceDir, pagePath)
    requirePrecondition(relative, precondition)
    return this.mutex.run(relative, async () => {
      this.locks.assertWritable(relative, taskId)
      const current = await readPage(absolute, relative)
      const previousHash = current === null ? null : hashContent(current)
      checkPrecondition(relative, precondition, previousHash)
      // Judged against the page as it is now: only what this write adds or changes is the writer's.
      const verdict = guardContent(current, content)
      if (!verdict.ok) {
        throw new MetaBlogError('ERR_UNSAFE_CONTENT', `${relative} was not written. ${verdict.message}`, {
          line: verdict.line,
          construct: verdict.construct,
        })
      }
      await writeFileAtomic(absolute, verdict.content, { verify: () => this.confirmInside(relative) }).catch((error: unknown) => {
        throw explainWriteError(relative, error)
      })
      return {
        path: relative,
        hash: hashContent(verdict.content),
        created: current === null,
        previousHash,
        content: verdict.content,
        neutralized: verdict.neutralized,
      }
    })
  }

  async delete(pagePath: unknown, precondition: WritePrecondition, taskId?: string): Promise<{ path: string; previousHash: string }> {
    const { relative, absolute } = await resolvePagePath(this.sourceDir, pagePath)
    if (precondition.ifMatch === undefined) {
      throw new MetaBlogError(
        'ERR_PRECONDITION_REQUIRED',
        `Deleting ${relative} needs If-Match: "<hash>" with the hash you read, so a page changed since is never lost.`,
      )
    }
    return this.mutex.run(relative, async () => {
      this.locks.assertWritable(relative, taskId)
      const current = await readPage(absolute, relative)
      if (current === null) throw new MetaBlogError('ERR_NOT_FOUND', `${relative} does not exist.`)
      const previousHash = hashContent(current)
      checkPrecondition(relative, precondition, previousHash)
      await this.confirmInside(relative)
      await fs.rm(absolute)
      return { path: relative, previousHash }
    })
  }

  /** Every Markdown page of the site, skipping dot-folders (such as .vitepress) and node_modules. */
  listPagePaths(): Promise<string[]> {
    return listPagePaths(this.sourceDir)
  }

  /** Every page with its summary; a page whose file is unchanged since the last listing is not read again. */
  async listPages(): Promise<PageSummary[]> {
    const files = await listPageFiles(this.sourceDir)
    const stamps = await Promise.all(files.map((file) => fileStamp(path.join(this.sourceDir, file.file))))
    const stale = files.filter((file, index) => stamps[index] === null || this.summaries.get(file.path)?.stamp !== stamps[index])
    // A listing reads leniently: one page in another encoding must not hide all the others.
    const read = new Map((await readPages(this.sourceDir, stale)).map((page) => [page.path, page.content]))
    const next = new Map<string, CachedSummary>()
    files.forEach((file, index) => {
      const content = read.get(file.path)
      const cached = this.summaries.get(file.path)
      const entry = content !== undefined ? { stamp: stamps[index] ?? null, summary: summarize(file.path, content) } : cached?.stamp === stamps[index] ? cached : undefined
      if (entry) next.set(file.path, entry)
    })
    this.summaries = next
    return [...next.values()].map((entry) => entry.summary)
  }

  /** Removes temp files left by a write that was killed between write and rename (older than `minAgeMs`). */
  removeStaleTempFiles(minAgeMs?: number): Promise<number> {
    return removeStaleTempFiles(this.sourceDir, minAgeMs)
  }

  /** Checks again, right before a change lands, that no folder was swapped for a symlink leading out. */
  private async confirmInside(relative: string): Promise<void> {
    await resolvePagePath(this.sourceDir, relative)
  }
}

interface CachedSummary {
  stamp: string | null
  summary: PageSummary
}

/** Changes whenever a file's content may have: inode, size, and modification and change times in ns. */
async function fileStamp(file: string): Promise<string | null> {
  try {
    const stats = await fs.stat(file, { bigint: true })
    return `${stats.ino}:${stats.size}:${stats.mtimeNs}:${stats.ctimeNs}`
  } catch {
    return null
  }
}

function summarize(relative: string, content: string): PageSummary {
  const meta = parsePageMeta(relative, content)
  return {
    path: relative,
    title: meta.title,
    hash: hashContent(content),
    date: meta.date,
    tags: meta.tags,
    description: meta.description,
    draft: meta.draft,
  }
}

/**
 * A page's text, or null when there is none; refuses a folder, anything else that is not a plain
 * file (a named pipe would hang the read), and text that is not UTF-8.
 */
async function readPage(file: string, relative: string): Promise<string | null> {
  let bytes: Buffer
  let handle: number | undefined
  // Sync: a page is read in well under a millisecond, where four thread-pool round trips cost several under load.
  try {
    // O_NONBLOCK: opening a named pipe returns at once instead of waiting for a writer.
    handle = fsSync.openSync(file, fsConstants.O_RDONLY | fsConstants.O_NONBLOCK)
    const stats = fsSync.fstatSync(handle)
    if (stats.isDirectory()) throw new MetaBlogError('ERR_BAD_PATH', `${relative} is a folder, not a Markdown page.`)
    if (!stats.isFile()) throw new MetaBlogError('ERR_BAD_PATH', `${relative} is not a regular file, so MetaBlog will not read or write it.`)
    bytes = fsSync.readFileSync(handle)
  } catch (error) {
    if (isErrnoException(error) && (error.code === 'ENOENT' || error.code === 'ENOTDIR')) return null
    throw error
  } finally {
    if (handle !== undefined) fsSync.closeSync(handle)
  }
  try {
    return UTF8.decode(bytes)
  } catch {
    throw new MetaBlogError(
      'ERR_BAD_REQUEST',
      `${relative} is not UTF-8 text, so MetaBlog will not read or rewrite it (that would corrupt it). Convert the page to UTF-8 in your editor first.`,
    )
  }
}

/** File-system refusals that come from the path itself, as ERR_BAD_PATH without the server's absolute paths. */
function explainWriteError(relative: string, error: unknown): unknown {
  if (!isErrnoException(error)) return error
  if (error.code === 'ENOTDIR' || error.code === 'EEXIST') {
    return new MetaBlogError('ERR_BAD_PATH', `A part of ${relative} is a file, not a folder, so the page cannot be created there.`)
  }
  if (error.code === 'ENAMETOOLONG') return new MetaBlogError('ERR_BAD_PATH', `${relative} is too long a name for the file system.`)
  return error
}

function requirePrecondition(relative: string, precondition: WritePrecondition): void {
  if (precondition.ifMatch === undefined && precondition.ifNoneMatch === undefined) {
    throw new MetaBlogError(
      'ERR_PRECONDITION_REQUIRED',
      `Writing ${relative} needs If-Match: "<hash>" (the hash you read) to update it, or If-None-Match: * to create it.`,
    )
  }
}

function checkPrecondition(relative: string, precondition: WritePrecondition, currentHash: string | null): void {
  if (precondition.ifNoneMatch === '*' && currentHash !== null) {
    throw new MetaBlogError('ERR_STALE', `${relative} already exists. Read it and update it with If-Match instead.`, {
      currentHash,
    })
  }
  if (precondition.ifMatch !== undefined && precondition.ifMatch !== currentHash) {
    const message =
      currentHash === null
        ? `${relative} no longer exists; it was deleted after you read it.`
        : `${relative} changed since you read it. Reload it, merge your change, and write again with the new hash.`
    throw new MetaBlogError('ERR_STALE', message, { currentHash })
  }
}
