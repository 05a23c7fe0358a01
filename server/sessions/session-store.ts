import fs from 'node:fs/promises'
import path from 'node:path'
import type { SessionEntry, SessionResponse, SessionSummary } from '../../plugin/protocol.js'
import { MetaBlogError, isErrnoException } from '../errors.js'
import { KeyedMutex } from '../keyed-mutex.js'
import { folderNames, removeFile } from '../folder-names.js'
import { SESSION_ID, checkSessionId } from './session-entry.js'
import { MAX_LINE_LENGTH, parseSessionLog, summarizeSession, type SkippedLine } from './session-log.js'

export const SESSION_MAX_BYTES = 20 * 1024 * 1024
const EXTENSION = '.jsonl'
// More warnings than this for one read would only bury the terminal.
const WARNINGS_PER_READ = 5

export interface SessionStoreOptions {
  folder: string
  /** Largest log file; an append past it is refused with ERR_TOO_LARGE. Default 20 MiB. */
  maxBytes?: number
  maxLineLength?: number
  warn?: (message: string) => void
  /** Reads a whole log; tests count the calls. Default fs.readFile as UTF-8. */
  readLog?: (file: string) => Promise<string>
}

interface CachedSummary {
  mtimeMs: number
  size: number
  summary: SessionSummary
}

/** Conversations, one append-only JSONL file each, in a folder the file watcher ignores. */
export class SessionStore {
  private readonly folder: string
  private readonly maxBytes: number
  private readonly maxLineLength: number
  private readonly warn: (message: string) => void
  private readonly readLog: (file: string) => Promise<string>
  // Appends and deletes of one session run one at a time, so two requests never interleave their lines.
  private readonly mutex = new KeyedMutex()
  private readonly summaries = new Map<string, CachedSummary>()

  constructor(options: SessionStoreOptions) {
    this.folder = options.folder
    this.maxBytes = options.maxBytes ?? SESSION_MAX_BYTES
    this.maxLineLength = options.maxLineLength ?? MAX_LINE_LENGTH
    this.warn = options.warn ?? ((message) => console.warn(message))
    this.readLog = options.readLog ?? ((file) => fs.readFile(file, 'utf8'))
  }

  private fileOf(id: string): string {
    return path.join(this.folder, `${checkSessionId(id)}${EXTENSION}`)
  }

  /** Appends entries (already checked) in one write; returns the log's size after it. */
  async append(id: string, entries: SessionEntry[]): Promise<number> {
    const file = this.fileOf(id)
    return this.mutex.run(id, async () => {
      let text = entries.map((entry) => JSON.stringify(entry)).join('\n') + '\n'
      const size = await sizeOf(file)
      // A crash may have torn the last line: end it, so the new entries start on a line of their own.
      if (size > 0 && !(await endsWithNewline(file, size))) text = '\n' + text
      const bytes = Buffer.byteLength(text)
      if (size + bytes > this.maxBytes) {
        throw new MetaBlogError(
          'ERR_TOO_LARGE',
          `The conversation log ${id} would pass ${Math.round(this.maxBytes / 1024 / 1024)} MiB: start a new conversation (the old one stays readable).`,
        )
      }
      await fs.mkdir(this.folder, { recursive: true })
      await fs.appendFile(file, text, 'utf8')
      return size + bytes
    })
  }

  /** The whole log; lines that are not valid entries are skipped with a warning. */
  async read(id: string): Promise<SessionResponse> {
    const file = this.fileOf(id)
    let text: string
    try {
      text = await this.readLog(file)
    } catch (error) {
      if (isErrnoException(error) && error.code === 'ENOENT') {
        throw new MetaBlogError('ERR_NOT_FOUND', `There is no conversation ${id}; GET /sessions lists the ones there are.`)
      }
      throw error
    }
    const { entries, skipped } = parseSessionLog(text, this.maxLineLength)
    this.reportSkipped(id, skipped)
    return { id, entries, skipped: skipped.length }
  }

  async delete(id: string): Promise<boolean> {
    const file = this.fileOf(id)
    return this.mutex.run(id, async () => {
      this.summaries.delete(id)
      return removeFile(file)
    })
  }

  /** Every conversation, newest first; a log is read again only when its size or time changed. */
  async list(): Promise<SessionSummary[]> {
    const names = await folderNames(this.folder)
    const summaries: SessionSummary[] = []
    const seen = new Set<string>()
    for (const name of names) {
      const id = name.slice(0, -EXTENSION.length)
      if (!name.endsWith(EXTENSION) || !SESSION_ID.test(id)) continue
      seen.add(id)
      // One unreadable log (a folder, a file we may not read) must not hide every other one.
      try {
        const summary = await this.summaryOf(id)
        if (summary) summaries.push(summary)
      } catch (error) {
        // Deleted between the folder listing and the read: simply gone.
        if (isErrnoException(error) && error.code === 'ENOENT') continue
        this.warn(`[metablog] skipped conversation ${name}: ${isErrnoException(error) ? error.code : (error as Error).message}.`)
      }
    }
    for (const id of this.summaries.keys()) if (!seen.has(id)) this.summaries.delete(id)
    return summaries.sort((a, b) => Date.parse(b.updatedAt) - Date.parse(a.updatedAt))
  }

  private async summaryOf(id: string): Promise<SessionSummary | null> {
    const file = this.fileOf(id)
    const stats = await fs.stat(file)
    if (!stats.isFile()) return null
    const cached = this.summaries.get(id)
    if (cached && cached.mtimeMs === stats.mtimeMs && cached.size === stats.size) return cached.summary
    const text = await this.readLog(file)
    const { entries, skipped } = parseSessionLog(text, this.maxLineLength)
    this.reportSkipped(id, skipped)
    const summary = summarizeSession(id, entries, stats.mtime.toISOString())
    this.summaries.set(id, { mtimeMs: stats.mtimeMs, size: stats.size, summary })
    return summary
  }

  private reportSkipped(id: string, skipped: SkippedLine[]): void {
    for (const { line, reason } of skipped.slice(0, WARNINGS_PER_READ)) {
      this.warn(`[metablog] conversation ${id}: skipped line ${line}: ${reason}.`)
    }
    if (skipped.length > WARNINGS_PER_READ) {
      this.warn(`[metablog] conversation ${id}: skipped ${skipped.length - WARNINGS_PER_READ} more lines.`)
    }
  }
}

async function sizeOf(file: string): Promise<number> {
  try {
    return (await fs.stat(file)).size
  } catch (error) {
    if (isErrnoException(error) && error.code === 'ENOENT') return 0
    throw error
  }
}

async function endsWithNewline(file: string, size: number): Promise<boolean> {
  const handle = await fs.open(file, 'r')
  try {
    const last = Buffer.alloc(1)
    await handle.read(last, 0, 1, size - 1)
    return last[0] === 0x0a
  } finally {
    await handle.close()
  }
}
