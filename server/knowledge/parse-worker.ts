// The worker of parse-off-thread.ts: reads and parses the pages it is given in batches, posting each
// batch as it is done, so the server's thread takes them in small bites.
import { parentPort, workerData } from 'node:worker_threads'
import { readPages } from './load-pages.js'
import type { ParseJob, ParseMessage } from './parse-off-thread.js'
import { parsePage } from './parse-page.js'

/** Pages a message: ~0.5 MB of JSON, a few milliseconds to parse on the server's thread. */
const BATCH = 500

const post = (message: ParseMessage) => parentPort!.postMessage(message)
const { sourceDir, pages: files } = workerData as ParseJob
for (let start = 0; start < files.length; start += BATCH) {
  const read = await readPages(sourceDir, files.slice(start, start + BATCH), () => Promise.resolve())
  // The index reads a page's text again when search needs it, as KnowledgeIndex.load's does.
  const pages = read.map((page) => ({ ...parsePage(page.path, page.content), content: null }))
  post({ pages: JSON.stringify(pages) })
}
post({ done: true })
