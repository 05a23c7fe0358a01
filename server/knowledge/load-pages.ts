import fs from 'node:fs'
import path from 'node:path'
import { isSkippedFolder, pageNameOf } from '../safe-path.js'
import { isAttachmentPath } from './attachments.js'
import type { PageInput } from './knowledge-index.js'

/** Synchronous reads go on for this long before the event loop gets a turn. */
const READ_SLICE_MS = 8

/** The pause between two slices unless the caller gives its own: one turn of the event loop. */
export const nextTurn = () => new Promise((resolve) => setImmediate(resolve))

/** A page found on disk: its name (NFC, as /files names it) and the file as spelled on disk. */
export interface PageFile {
  path: string
  file: string
}

/** What one walk of the source folder finds: the pages, and the attachment files wiki-links can embed. */
export interface SiteFiles {
  pages: PageFile[]
  /** Attachment files ('Attachments/icons/a.svg'), sorted. */
  attachments: string[]
}

/**
 * Every Markdown page under `sourceDir`, sorted by name, and every attachment file, in one walk.
 * The rule is the one /files applies (`pageNameOf`, from safe-path): no dot-folders (.vitepress),
 * node_modules or 8.3 short names, and no symlinks, so nothing outside the source folder is ever
 * read and one file has one name. The one folder walk behind the knowledge index and GET /pages.
 */
export async function listSiteFiles(sourceDir: string): Promise<SiteFiles> {
  const found = new Map<string, string>()
  const attachments: string[] = []
  const walk = async (folder: string, prefix: string): Promise<void> => {
    const entries = await fs.promises.readdir(folder, { withFileTypes: true })
    await Promise.all(
      entries.map(async (entry) => {
        // Dirent types come from lstat: a symlink is neither a directory nor a file here.
        if (entry.isDirectory()) {
          if (!isSkippedFolder(entry.name)) await walk(path.join(folder, entry.name), `${prefix}${entry.name}/`)
        } else if (entry.isFile() && entry.name.endsWith('.md')) {
          const file = `${prefix}${entry.name}`
          const name = pageNameOf(file)
          // Two spellings of one name (NFC and NFD side by side): the one already in NFC wins.
          if (name !== null && (!found.has(name) || name === file)) found.set(name, file)
        } else if (entry.isFile() && isAttachmentPath(`${prefix}${entry.name}`)) {
          attachments.push(`${prefix}${entry.name}`)
        }
      }),
    )
  }
  await walk(sourceDir, '')
  const pages = [...found].map(([name, file]) => ({ path: name, file })).sort((left, right) => (left.path < right.path ? -1 : left.path > right.path ? 1 : 0))
  return { pages, attachments: attachments.sort() }
}

/** Every Markdown page under `sourceDir`, sorted by name (see listSiteFiles). */
export async function listPageFiles(sourceDir: string): Promise<PageFile[]> {
  return (await listSiteFiles(sourceDir)).pages
}

/** The names of every page under `sourceDir` (see listPageFiles), sorted. */
export async function listPagePaths(sourceDir: string): Promise<string[]> {
  return (await listPageFiles(sourceDir)).map((page) => page.path)
}

/**
 * Reads pages with synchronous reads, giving the event loop a turn (or awaiting `pause`) every few milliseconds. For
 * thousands of small files that is 2-3× faster than callback `fs.readFile` (a thread-pool round
 * trip per file, measured at 10,000 pages) and the server still answers between batches.
 * A page that vanished between listing and reading is left out.
 */
export async function readPages(sourceDir: string, pages: PageFile[], pause: () => Promise<unknown> = nextTurn): Promise<PageInput[]> {
  const read: PageInput[] = []
  let deadline = performance.now() + READ_SLICE_MS
  for (const page of pages) {
    try {
      read.push({ path: page.path, content: fs.readFileSync(path.join(sourceDir, page.file), 'utf8') })
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error
    }
    if (performance.now() >= deadline) {
      await pause()
      deadline = performance.now() + READ_SLICE_MS
    }
  }
  return read
}

/** How many steps run between two looks at the clock. */
const STEPS_PER_CHECK = 32

/**
 * Runs every step of `steps`, giving the event loop a turn every `sliceMs`. Each turn is a chance for
 * a busy machine to run something else for a while, so slices are no shorter than a request can wait.
 */
export async function runInSlices(steps: Iterator<unknown>, sliceMs: number, pause: () => Promise<unknown> = nextTurn): Promise<void> {
  let deadline = performance.now() + sliceMs
  for (let count = 1; !steps.next().done; count++) {
    if (count % STEPS_PER_CHECK === 0 && performance.now() >= deadline) {
      await pause()
      deadline = performance.now() + sliceMs
    }
  }
}

/** Reads a page's file again by its name; null when it is gone. */
export type PageReader = (path: string) => string | null

/**
 * Reads pages of `sourceDir` by name, synchronously (one small file takes microseconds; a search
 * needs its few snippets at once). A file listed under another spelling (NFD) is read by that spelling.
 */
export function pageReader(sourceDir: string, files: PageFile[]): PageReader {
  const spelled = new Map(files.filter((file) => file.file !== file.path).map((file) => [file.path, file.file]))
  return (page) => {
    try {
      return fs.readFileSync(path.join(sourceDir, spelled.get(page) ?? page), 'utf8')
    } catch {
      return null
    }
  }
}

export async function loadPages(sourceDir: string): Promise<PageInput[]> {
  return readPages(sourceDir, await listPageFiles(sourceDir))
}
