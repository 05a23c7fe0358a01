import fs from 'node:fs/promises'
import path from 'node:path'
import type { PageSummary } from '../plugin/protocol.js'
import { TEMP_SUFFIX, writeFileAtomic } from './atomic-write.js'
import { MetaBlogError, isErrnoException } from './errors.js'
import { hashContent } from './hash.js'
import { KeyedMutex } from './keyed-mutex.js'
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
}

export interface FileStoreOptions {
  sourceDir: string
  locks: LockManager
}

const SKIPPED_FOLDERS = new Set(['node_modules'])

/** Reads and writes the site's Markdown pages safely: checked paths, preconditions, locks, atomic writes. */
export class FileStore {
  readonly sourceDir: string
  private readonly locks: LockManager
  private readonly mutex = new KeyedMutex()

  constructor(options: FileStoreOptions) {
    this.sourceDir = options.sourceDir
    this.locks = options.locks
  }

  async read(pagePath: unknown): Promise<StoredFile> {
    const { relative, absolute } = await resolvePagePath(this.sourceDir, pagePath)
    const content = await readIfExists(absolute)
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
      const current = await readIfExists(absolute)
      const previousHash = current === null ? null : hashContent(current)
      checkPrecondition(relative, precondition, previousHash)
      await writeFileAtomic(absolute, content)
      return { path: relative, hash: hashContent(content), created: current === null, previousHash }
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
      const current = await readIfExists(absolute)
      if (current === null) throw new MetaBlogError('ERR_NOT_FOUND', `${relative} does not exist.`)
      const previousHash = hashContent(current)
      checkPrecondition(relative, precondition, previousHash)
      await fs.rm(absolute)
      return { path: relative, previousHash }
    })
  }

  /** Every Markdown page of the site, skipping dot-folders (such as .vitepress) and node_modules. */
  async listPagePaths(): Promise<string[]> {
    const found: string[] = []
    const walk = async (folder: string, prefix: string): Promise<void> => {
      const entries = await fs.readdir(folder, { withFileTypes: true })
      for (const entry of entries) {
        if (entry.name.startsWith('.') || SKIPPED_FOLDERS.has(entry.name)) continue
        if (entry.isDirectory()) await walk(path.join(folder, entry.name), `${prefix}${entry.name}/`)
        else if (entry.isFile() && entry.name.endsWith('.md')) found.push(`${prefix}${entry.name}`)
      }
    }
    await walk(this.sourceDir, '')
    return found.sort()
  }

  async listPages(): Promise<PageSummary[]> {
    const paths = await this.listPagePaths()
    const pages = await Promise.all(
      paths.map(async (relative) => {
        const content = await readIfExists(path.join(this.sourceDir, relative))
        if (content === null) return null
        const meta = parsePageMeta(relative, content)
        return {
          path: relative,
          title: meta.title,
          hash: hashContent(content),
          date: meta.date,
          tags: meta.tags,
          description: meta.description,
          draft: meta.draft,
        } satisfies PageSummary
      }),
    )
    return pages.filter((page) => page !== null)
  }

  /** Removes temp files left by a write that was killed between write and rename. */
  async removeStaleTempFiles(): Promise<number> {
    let removed = 0
    const walk = async (folder: string): Promise<void> => {
      const entries = await fs.readdir(folder, { withFileTypes: true })
      for (const entry of entries) {
        const full = path.join(folder, entry.name)
        if (entry.isFile() && entry.name.endsWith(TEMP_SUFFIX)) {
          await fs.rm(full, { force: true })
          removed++
        } else if (entry.isDirectory() && !entry.name.startsWith('.') && !SKIPPED_FOLDERS.has(entry.name)) {
          await walk(full)
        }
      }
    }
    await walk(this.sourceDir)
    return removed
  }
}

async function readIfExists(file: string): Promise<string | null> {
  try {
    return await fs.readFile(file, 'utf8')
  } catch (error) {
    if (isErrnoException(error) && (error.code === 'ENOENT' || error.code === 'ENOTDIR')) return null
    if (isErrnoException(error) && error.code === 'EISDIR') {
      throw new MetaBlogError('ERR_BAD_PATH', 'That path is a folder, not a Markdown page.')
    }
    throw error
  }
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
    throw new MetaBlogError('ERR_STALE', message, { currentHash: currentHash ?? undefined })
  }
}
