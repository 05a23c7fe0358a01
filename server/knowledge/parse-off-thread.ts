// The dev server's knowledge build, its reading and parsing on a thread of its own. At 10,000 pages
// they are ~0.7 s of CPU that, on the server's thread, came between the browser and every module it
// asked for at the first paint; the thread answers requests meanwhile and builds only names and links.
import fs from 'node:fs'
import { Worker } from 'node:worker_threads'
import type { SiteFiles } from './load-pages.js'
import type { ParsedPage } from './parse-page.js'

/** A site's files, and its pages as parsed for an index that reads page text again when it needs it (`content` null). */
export interface ParsedSite {
  files: SiteFiles
  pages: ParsedPage[]
}

/** What parse-worker posts: the listing first, then pages in batches (JSON: one string to copy, parsed here in small bites), then the end. */
export type ParseMessage = { files: SiteFiles } | { pages: string } | { done: true }

/** Beside this module: in dist/node the bundle's entry, in dist/server the compiled module; a source checkout has none. */
const WORKER = new URL('./parse-worker.js', import.meta.url)

/**
 * Lists, reads and parses the pages of `sourceDir` on a worker thread. Null where there is no worker
 * file (run from the TypeScript sources); rejects when the thread fails (a page it could not read).
 */
export function parseOffThread(sourceDir: string): Promise<ParsedSite> | null {
  if (!fs.existsSync(WORKER)) return null
  return new Promise((resolve, reject) => {
    const worker = new Worker(WORKER, { workerData: { sourceDir } })
    let files: SiteFiles | null = null
    const pages: ParsedPage[] = []
    worker.on('message', (message: ParseMessage) => {
      if ('files' in message) files = message.files
      else if ('pages' in message) for (const page of JSON.parse(message.pages) as ParsedPage[]) pages.push(page)
      else if (files) resolve({ files, pages })
    })
    worker.once('error', reject)
    // After the end it resolved already; before it, the thread stopped without an error of its own.
    worker.once('exit', (code) => reject(new Error(`the page parser's thread stopped early (exit code ${code})`)))
  })
}
