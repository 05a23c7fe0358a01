import fs from 'node:fs'
import path from 'node:path'
import { isSkippedFolder } from '../safe-path.js'
import type { PageInput } from './knowledge-index.js'

// Enough reads in flight to keep libuv's thread pool busy without queueing thousands of requests.
const READS_IN_FLIGHT = 32

/**
 * Every Markdown page under `sourceDir` ('posts/foo.md'), skipping dot-folders (.vitepress) and
 * node_modules, sorted. The one folder walk behind the knowledge index and GET /pages.
 */
export async function listPagePaths(sourceDir: string): Promise<string[]> {
  const found: string[] = []
  const walk = async (folder: string, prefix: string): Promise<void> => {
    const entries = await fs.promises.readdir(folder, { withFileTypes: true })
    await Promise.all(
      entries.map(async (entry) => {
        if (entry.isDirectory()) {
          if (!isSkippedFolder(entry.name)) await walk(path.join(folder, entry.name), `${prefix}${entry.name}/`)
        } else if (entry.isFile() && entry.name.endsWith('.md') && !entry.name.startsWith('.')) found.push(`${prefix}${entry.name}`)
      }),
    )
  }
  await walk(sourceDir, '')
  return found.sort()
}

/**
 * Reads pages with a bounded number of reads in flight. Callback `fs.readFile` is used on purpose:
 * for thousands of small files it is several times faster than `fs.promises.readFile`.
 * A page that vanished between listing and reading is left out.
 */
export function readPages(sourceDir: string, paths: string[]): Promise<PageInput[]> {
  return new Promise((resolve, reject) => {
    const contents: (string | null)[] = new Array(paths.length).fill(null)
    let next = 0
    let pending = paths.length
    if (pending === 0) return resolve([])
    const finish = () => resolve(paths.flatMap((pagePath, index) => (contents[index] === null ? [] : [{ path: pagePath, content: contents[index]! }])))
    const start = (): void => {
      const index = next++
      if (index >= paths.length) return
      fs.readFile(path.join(sourceDir, paths[index]!), 'utf8', (error, content) => {
        if (error && error.code !== 'ENOENT') return reject(error)
        if (!error) contents[index] = content
        if (--pending === 0) finish()
        else start()
      })
    }
    for (let started = 0; started < READS_IN_FLIGHT; started++) start()
  })
}

export async function loadPages(sourceDir: string): Promise<PageInput[]> {
  return readPages(sourceDir, await listPagePaths(sourceDir))
}
