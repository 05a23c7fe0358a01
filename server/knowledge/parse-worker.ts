// The worker of parse-off-thread.ts: lists the site's files, then reads and parses its pages in
// batches, posting each batch as it is done, so the server's thread takes them in small bites.
import { parentPort, workerData } from 'node:worker_threads'
import { listSiteFiles, readPages } from './load-pages.js'
import type { ParseMessage } from './parse-off-thread.js'
import { parsePage } from './parse-page.js'

/** Pages a message: ~0.5 MB of JSON, a few milliseconds to parse on the server's thread. */
const BATCH = 500

const post = (message: ParseMessage) => parentPort!.postMessage(message)
const { sourceDir } = workerData as { sourceDir: string }
const files = await listSiteFiles(sourceDir)
post({ files })
for (let start = 0; start < files.pages.length; start += BATCH) {
  const read = await readPages(sourceDir, files.pages.slice(start, start + BATCH), () => Promise.resolve())
  // The index reads a page's text again when search needs it, as KnowledgeIndex.load's does.
  const pages = read.map((page) => ({ ...parsePage(page.path, page.content), content: null }))
  post({ pages: JSON.stringify(pages) })
}
post({ done: true })
