import fs from 'node:fs'
import path from 'node:path'
import { isSkippedFolder, pageNameOf } from '../safe-path.js'
import type { PageInput } from './knowledge-index.js'

// Enough reads in flight to keep libuv's thread pool busy without queueing thousands of requests.
const READS_IN_FLIGHT = 32

/** A page found on disk: its name (NFC, as /files names it) and the file as spelled on disk. */
export interface PageFile {
  path: string
  file: string
}

/**
 * Every Markdown page under `sourceDir`, sorted by name. The rule is the one /files applies
 * (`pageNameOf`, from safe-path): no dot-folders (.vitepress), node_modules or 8.3 short names,
 * and no symlinks, so nothing outside the source folder is ever read and one file has one name.
 * The one folder walk behind the knowledge index and GET /pages.
 */
export async function listPageFiles(sourceDir: string): Promise<PageFile[]> {
  const found = new Map<string, string>()
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
        }
      }),
    )
  }
  await walk(sourceDir, '')
  return [...found].map(([name, file]) => ({ path: name, file })).sort((left, right) => (left.path < right.path ? -1 : left.path > right.path ? 1 : 0))
}

/** The names of every page under `sourceDir` (see listPageFiles), sorted. */
export async function listPagePaths(sourceDir: string): Promise<string[]> {
  return (await listPageFiles(sourceDir)).map((page) => page.path)
}

/**
 * Reads pages with a bounded number of reads in flight. Callback `fs.readFile` is used on purpose:
 * for thousands of small files it is several times faster than `fs.promises.readFile`.
 * A page that vanished between listing and reading is left out.
 */
export function readPages(sourceDir: string, pages: PageFile[]): Promise<PageInput[]> {
  return new Promise((resolve, reject) => {
    const contents: (string | null)[] = new Array(pages.length).fill(null)
    let next = 0
    let pending = pages.length
    if (pending === 0) return resolve([])
    const finish = () => resolve(pages.flatMap((page, index) => (contents[index] === null ? [] : [{ path: page.path, content: contents[index]! }])))
    const start = (): void => {
      const index = next++
      if (index >= pages.length) return
      fs.readFile(path.join(sourceDir, pages[index]!.file), 'utf8', (error, content) => {
        if (error && error.code !== 'ENOENT') return reject(error)
        if (!error) contents[index] = content
        if (--pending === 0) finish()
        else start()
      })
    }
    for (let started = 0; started < READS_IN_FLIGHT; started++) start()
  })
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
