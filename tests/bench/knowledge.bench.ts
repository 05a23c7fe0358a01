// The knowledge layer at 1k and 10k pages: full build against merely reading the files,
// incremental updates, and search queries. Deterministic content; timings are medians.
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { PerformanceObserver } from 'node:perf_hooks'
import { KnowledgeIndex } from '../../server/knowledge/knowledge-index.js'
import { listPagePaths, loadPages } from '../../server/knowledge/load-pages.js'
import { floorLines, parseTimes } from './knowledge-floor.js'
import { createRandom, syntheticBlog, syntheticContent, type SyntheticPage } from './knowledge-synthetic-blog.js'

type Blog = ReturnType<typeof syntheticBlog>

const TARGETS = { updateMs: 2, flatness: 2, searchMs: 5 }

interface SizeResult {
  pages: number
  updateMedian: number
  searchMedian: number
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b)
  const middle = sorted.length >> 1
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2
}

function percentile(values: number[], fraction: number): number {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * fraction))]!
}

const ms = (value: number) => `${value < 10 ? value.toFixed(2) : value.toFixed(0)} ms`
const verdict = (pass: boolean) => (pass ? 'PASS' : 'FAIL')

async function time<T>(work: () => Promise<T> | T): Promise<[number, T]> {
  const started = performance.now()
  const result = await work()
  return [performance.now() - started, result]
}

function writeSite(pages: SyntheticPage[]): string {
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'metablog-bench-'))
  for (const page of pages) {
    fs.mkdirSync(path.dirname(path.join(folder, page.path)), { recursive: true })
    fs.writeFileSync(path.join(folder, page.path), page.content)
  }
  return folder
}

/** Milliseconds of garbage collection while `work` runs (GC entries are delivered after it, hence the turn). */
async function gcDuring(work: () => unknown): Promise<number> {
  let total = 0
  const observer = new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) total += entry.duration
  })
  observer.observe({ entryTypes: ['gc'] })
  work()
  await new Promise((resolve) => setTimeout(resolve, 50))
  observer.disconnect()
  return total
}

async function benchBuild(folder: string, rounds: number): Promise<KnowledgeIndex> {
  await loadPages(folder) // warm the page cache and the JIT
  const reads: number[] = []
  const syncReads: number[] = []
  const builds: number[] = []
  const inMemory: number[] = []
  const parseOnly: number[] = []
  const markdownIt: number[] = []
  const gcInBuild: number[] = []
  let index: KnowledgeIndex | undefined
  for (let round = 0; round < rounds; round++) {
    // Read and build back to back (the floor's read right after), so each round's ratios see the same machine load.
    const [read, pages] = await time(() => loadPages(folder))
    const [build, built] = await time(() => KnowledgeIndex.load(folder))
    reads.push(read)
    builds.push(build)
    syncReads.push(
      (await time(async () => {
        const paths = await listPagePaths(folder)
        return paths.map((pagePath) => fs.readFileSync(path.join(folder, pagePath), 'utf8'))
      }))[0],
    )
    inMemory.push((await time(() => KnowledgeIndex.build(pages)))[0])
    const parsed = parseTimes(pages)
    parseOnly.push(parsed.parse)
    markdownIt.push(parsed.markdownIt)
    gcInBuild.push(await gcDuring(() => KnowledgeIndex.build(pages)))
    index = built
  }
  console.log(`  read the files (list + fs.readFile, as the loader)   ${ms(median(reads))}`)
  console.log(`  full build (list + read + parse + resolve)           ${ms(median(builds))}   first, cold JIT: ${ms(builds[0]!)}`)
  console.log(`    of which parse + resolve, pages in memory          ${ms(median(inMemory))}`)
  console.log(`    of which parse alone, no links resolved            ${ms(median(parseOnly))}`)
  console.log(`  read them in a blocking fs.readFileSync loop (the floor's "read", as the dev-scale bench)   ${ms(median(syncReads))}`)
  for (const line of floorLines({ read: syncReads, build: builds, parse: parseOnly, markdownIt })) console.log(line)
  // Where the floor is: each phase as a multiple of the plain readFileSync loop (the dev-scale bench's "read").
  const floor = median(syncReads)
  const linking = Math.max(0, median(inMemory) - median(parseOnly))
  console.log(
    `  phases / the readFileSync loop: loader's read ${(median(reads) / floor).toFixed(2)}×, parse ${(median(parseOnly) / floor).toFixed(2)}×, names + links ${(linking / floor).toFixed(2)}× (GC in an in-memory build: ${ms(median(gcInBuild))})`,
  )
  const [searchBuild] = await time(() => index!.warmSearch())
  console.log(`  search index, built on first query or in background  ${ms(searchBuild)}`)
  return index!
}

/**
 * A deterministic mix of edits (70%), creates, renames and deletes (10% each), timed one by one. Each
 * change is made on disk first, untimed, as the dev server sees it: its index reads pages from the folder.
 */
async function benchUpdates(index: KnowledgeIndex, blog: Blog, folder: string, count: number): Promise<number> {
  const write = (pagePath: string, content: string) => {
    fs.mkdirSync(path.dirname(path.join(folder, pagePath)), { recursive: true })
    fs.writeFileSync(path.join(folder, pagePath), content)
  }
  const random = createRandom(99)
  const site = new Map(blog.pages.map((page) => [page.path, page.content]))
  const byKind: Record<string, number[]> = { edit: [], create: [], rename: [], delete: [] }
  const namesForContent = blog.names
  let created = 0
  for (let step = 0; step < count; step++) {
    const paths = [...site.keys()]
    const roll = random.int(10)
    const pagePath = random.pick(paths)
    if (roll < 7) {
      const content = syntheticContent(namesForContent, random.int(namesForContent.length), step + 1)
      write(pagePath, content)
      byKind.edit!.push((await time(() => index.upsert(pagePath, content)))[0])
      site.set(pagePath, content)
    } else if (roll < 8) {
      const newPath = `new/page-${created++}.md`
      const content = syntheticContent(namesForContent, random.int(namesForContent.length), step + 1)
      write(newPath, content)
      byKind.create!.push((await time(() => index.upsert(newPath, content)))[0])
      site.set(newPath, content)
    } else if (roll < 9) {
      const newPath = `moved/${path.posix.basename(pagePath, '.md')}-${step}.md`
      fs.mkdirSync(path.join(folder, 'moved'), { recursive: true })
      fs.renameSync(path.join(folder, pagePath), path.join(folder, newPath))
      byKind.rename!.push((await time(() => index.rename(pagePath, newPath)))[0])
      site.set(newPath, site.get(pagePath)!)
      site.delete(pagePath)
    } else {
      fs.rmSync(path.join(folder, pagePath))
      byKind.delete!.push((await time(() => index.remove(pagePath)))[0])
      site.delete(pagePath)
    }
  }
  const all = Object.values(byKind).flat()
  const parts = Object.entries(byKind).map(([kind, values]) => `${kind} ${ms(median(values))}`).join(', ')
  console.log(`  incremental update, ${all.length} mixed ops           median ${ms(median(all))}, p95 ${ms(percentile(all, 0.95))}  (${parts})`)
  return median(all)
}

/**
 * Queries the way people type them, drawn from the blog's own text: a word, two neighbouring
 * words, the start of a word (search as you type), a Chinese phrase, a word with a typo.
 */
function searchQueries(blog: Blog, count: number): string[] {
  const random = createRandom(7)
  const queries: string[] = []
  while (queries.length < count) {
    const text = random.pick(blog.pages).content.split('\n---\n')[1] ?? ''
    const kind = queries.length % 10
    if (kind === 8) {
      const chinese = text.match(/[\u4e00-\u9fff]{4,}/g)
      if (!chinese) continue
      const run = random.pick(chinese)
      const start = random.int(run.length - 3)
      queries.push(run.slice(start, start + 2 + random.int(3)))
      continue
    }
    const words = text.match(/[a-z]{2,}/g) ?? []
    if (words.length < 2) continue
    const at = random.int(words.length - 1)
    const word = words[at]!
    if (kind < 4) queries.push(word)
    else if (kind < 6) queries.push(`${word} ${words[at + 1]}`)
    else if (kind < 8) queries.push(word.slice(0, Math.min(word.length, 3 + random.int(3))))
    else if (word.length >= 5) queries.push(`${word.slice(0, 2)}${word[3]}${word[2]}${word.slice(4)}`)
  }
  return queries
}

function benchSearch(index: KnowledgeIndex, blog: Blog, count: number): number {
  const queries = searchQueries(blog, count)
  const timings = queries.map((query) => {
    const started = performance.now()
    index.search(query, 20)
    return performance.now() - started
  })
  const result = median(timings)
  console.log(`  search query, ${count} queries                       median ${ms(result)}, p95 ${ms(percentile(timings, 0.95))}`)
  return result
}

async function benchSize(pages: number): Promise<SizeResult> {
  console.log(`\n${pages} pages`)
  const blog = syntheticBlog(pages)
  const links = blog.pages.reduce((sum, page) => sum + (page.content.match(/\[\[|\]\(/g)?.length ?? 0), 0)
  const bytes = blog.pages.reduce((sum, page) => sum + page.content.length, 0)
  console.log(`  synthetic blog: ${pages} pages, ${(bytes / 1e6).toFixed(1)} MB, ~${(links / pages).toFixed(1)} links per page`)
  const folder = writeSite(blog.pages)
  try {
    // A 1,000-page build takes ~70 ms, where one collection moves a round by a fifth: many rounds, cheaply.
    const index = await benchBuild(folder, pages >= 10_000 ? 7 : 21)
    const updateMedian = await benchUpdates(index, blog, folder, 300)
    const searchMedian = benchSearch(index, blog, 400)
    return { pages, updateMedian, searchMedian }
  } finally {
    fs.rmSync(folder, { recursive: true, force: true })
  }
}

export async function run(): Promise<void> {
  const small = await benchSize(1_000)
  const large = await benchSize(10_000)
  const flatness = large.updateMedian / small.updateMedian
  console.log('\nsummary')
  console.log(`  incremental update median at 10k ${ms(large.updateMedian)}  target ≤ ${TARGETS.updateMs} ms  ${verdict(large.updateMedian <= TARGETS.updateMs)}`)
  console.log(`  update median 10k / 1k           ${flatness.toFixed(2)}×  target ≤ ${TARGETS.flatness}×  ${verdict(flatness <= TARGETS.flatness)}`)
  console.log(`  search query median at 10k       ${ms(large.searchMedian)}  target ≤ ${TARGETS.searchMs} ms  ${verdict(large.searchMedian <= TARGETS.searchMs)}`)
}
