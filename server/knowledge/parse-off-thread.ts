// The dev server's knowledge build, its reading and parsing on a thread of its own. At 10,000 pages
// they are ~0.7 s of CPU that, on the server's thread, came between the browser and every module it
// asked for at the first paint; the thread answers requests meanwhile and builds only names and links.
// Only for a big blog (OFF_THREAD_PAGES).
import fs from 'node:fs'
import { Worker } from 'node:worker_threads'
import type { PageFile } from './load-pages.js'
import type { ParsedPage } from './parse-page.js'

/**
 * Below this many pages the server's thread reads and parses them itself: a thread costs ~0.1 s to
 * start (more on a loaded machine), while 1,000 pages take about that to parse, and a small blog's
 * index is then ready at once (a search right after the start finds what it should).
 */
export const OFF_THREAD_PAGES = 2_000

/** What parse-worker is given: the source folder and its pages, as listed. */
export interface ParseJob {
  sourceDir: string
  pages: PageFile[]
}

/** What parse-worker posts: pages in batches (JSON: one string to copy, parsed here in small bites), then the end. */
export type ParseMessage = { pages: string } | { done: true }

/** Beside this module: in dist/node the bundle's entry, in dist/server the compiled module; a source checkout has none. */
const WORKER = new URL('./parse-worker.js', import.meta.url)

/**
 * Reads and parses `pages` of `sourceDir` (as listed) on a worker thread. Null where there is no
 * worker file (run from the TypeScript sources); rejects when the thread fails (a page it could not read).
 */
export function parseOffThread(sourceDir: string, pages: PageFile[]): Promise<ParsedPage[]> | null {
  if (!fs.existsSync(WORKER)) return null
  return new Promise((resolve, reject) => {
    const worker = new Worker(WORKER, { workerData: { sourceDir, pages } satisfies ParseJob })
    const parsed: ParsedPage[] = []
    worker.on('message', (message: ParseMessage) => {
      if ('pages' in message) for (const page of JSON.parse(message.pages) as ParsedPage[]) parsed.push(page)
      else resolve(parsed)
    })
    worker.once('error', reject)
    // After the end it resolved already; before it, the thread stopped without an error of its own.
    worker.once('exit', (code) => reject(new Error(`the page parser's thread stopped early (exit code ${code})`)))
  })
}
