// The dev server on a generated blog, plain `vitepress dev` against MetaBlog, alternating: what an
// author waits for. 1,000 pages by default; METABLOG_BENCH_BIG=1 for 10,000 (METABLOG_BENCH_PAGES=N for any).
import fs from 'node:fs'
import path from 'node:path'
import type { Browser, Page } from 'playwright-core'
import { API_PREFIX, TOKEN_HEADER } from '../../plugin/protocol.js'
import { KnowledgeIndex } from '../../server/knowledge/knowledge-index.js'
import { listPagePaths } from '../../server/knowledge/load-pages.js'
import { launchBrowser } from '../helpers/browser.js'
import { firstPaint, idleRss, peakRss, startServer, treeRss, writeSite, type RunningServer } from './dev-scale-servers.js'
import { floorLines, parseTimes, type FloorRounds } from './knowledge-floor.js'
import { syntheticBlog } from './knowledge-synthetic-blog.js'

const TARGETS = { firstPaint: 1.3, rss: 1.5, requestMs: 100, liveUpdateMs: 100 }
const PAGES = Number(process.env.METABLOG_BENCH_PAGES) || (process.env.METABLOG_BENCH_BIG === '1' ? 10_000 : 1_000)
// Three at any size: the first paint is judged by the median round, which two rounds do not have.
const ROUNDS = 3
const START_TIMEOUT_MS = 240_000
/** After first paint, memory is read once the server has been quiet this long (and search is complete)... */
const SETTLE_MS = 3_000
/** ...and again once V8 has given back what is no longer used (see idleRss), waiting at most this long. */
const IDLE_TIMEOUT_MS = 90_000

const median = (values: number[]) => [...values].sort((a, b) => a - b)[values.length >> 1]!
const ms = (value: number) => `${value.toFixed(0)} ms`
const mb = (bytes: number) => `${(bytes / 2 ** 20).toFixed(0)} MB`
const verdict = (pass: boolean) => (pass ? 'PASS' : 'FAIL')
const sleep = (milliseconds: number) => new Promise((resolve) => setTimeout(resolve, milliseconds))
const routeOf = (pagePath: string) => `/${pagePath.replace(/\.md$/, '')}`

async function timed<T>(work: () => Promise<T>): Promise<[number, T]> {
  const started = performance.now()
  const result = await work()
  return [performance.now() - started, result]
}

async function searchState(server: RunningServer, token: string, query: string) {
  const response = await fetch(`${server.origin}${API_PREFIX}/search?q=${encodeURIComponent(query)}`, { headers: { [TOKEN_HEADER]: token } })
  return (await response.json()) as { results: unknown[]; partial?: boolean; indexed?: number; total?: number }
}

async function tokenOf(server: RunningServer, route: string): Promise<string> {
  const html = await (await fetch(`${server.origin}${route}`)).text()
  const token = /<meta name="metablog-token" content="([^"]+)"/.exec(html)?.[1]
  if (!token) throw new Error('no metablog-token in the dev page')
  return token
}

/**
 * Memory after first paint, once MetaBlog's search index is complete: a few seconds after the work
 * (the heap still holds what the work left behind) and settled, once V8 has collected it and given
 * the memory back, as it does in a server left idle.
 */
async function memoryAfterWork(server: RunningServer, token: string | null) {
  const started = Date.now()
  while (token && Date.now() - started < START_TIMEOUT_MS && (await searchState(server, token, 'settle')).partial) await sleep(500)
  const quiet = server.output().length
  await sleep(SETTLE_MS)
  const afterWork = treeRss(server.child.pid!)
  return { afterWork, ...(await idleRss(server, quiet, IDLE_TIMEOUT_MS)) }
}

/** PUT a new page into the open page's folder, from the page itself: the time until the sidebar shows it. */
async function liveUpdate(page: Page, folder: string, round: number) {
  const title = `Devscale live ${round} ${Date.now()}`
  const content = `---\ntitle: ${title}\ndate: 2099-01-01\n---\n\n# ${title}\n\nFresh.\n`
  const siteDataRequests: string[] = []
  const onRequest = (request: { url: () => string }) => request.url().includes('@siteData') && siteDataRequests.push(request.url())
  page.on('request', onRequest)
  const result = await page.evaluate(
    async ({ path, content, title, prefix, header }) => {
      const token = document.querySelector<HTMLMetaElement>('meta[name="metablog-token"]')!.content
      const shown = () => (document.querySelector('.VPSidebar')?.textContent ?? '').includes(title)
      const started = performance.now()
      const rendered = new Promise<number>((resolve) => {
        const observer = new MutationObserver(() => shown() && (observer.disconnect(), resolve(performance.now())))
        observer.observe(document.body, { subtree: true, childList: true, characterData: true })
      })
      const response = await fetch(`${prefix}/files`, { method: 'PUT', headers: { 'content-type': 'application/json', [header]: token, 'if-none-match': '*' }, body: JSON.stringify({ path, content }) })
      const answered = performance.now()
      const at = await Promise.race([rendered, new Promise<null>((resolve) => setTimeout(() => resolve(null), 15_000))])
      return { status: response.status, answeredMs: answered - started, renderedMs: at === null ? null : at - started }
    },
    { path: `${folder}/devscale-live-${round}.md`, content, title, prefix: API_PREFIX, header: TOKEN_HEADER },
  )
  await sleep(500)
  page.off('request', onRequest)
  return { ...result, siteDataRefetched: siteDataRequests.length > 0 }
}

/**
 * The author's first calls, cold: a fresh server, the post opened in Chromium, and the moment the
 * assistant's button is there (the earliest the author can ask anything) the first search, then the
 * first call to the other routes, then small GETs while the search index builds: none may wait behind it.
 * (A call sent the moment the port opens, before any page, waits behind Vite's own start: its file
 * watcher setting up every file and its first transforms, which plain VitePress's requests wait behind too.)
 */
async function firstCalls(browser: Browser, root: string, route: string, query: string) {
  const server = await startServer(root, START_TIMEOUT_MS)
  try {
    const { page, paintMs } = await firstPaint(browser, server, route)
    const [orbMs] = await timed(() => page.getByRole('button', { name: /^Open MetaBlog assistant/ }).waitFor({ timeout: START_TIMEOUT_MS }))
    const token = await page.evaluate(() => document.querySelector<HTMLMetaElement>('meta[name="metablog-token"]')!.content)
    const [queryMs, first] = await timed(() => searchState(server, token, query))
    // An API route that reads no page: what it waits for is the event loop.
    const unrelated = () => fetch(`${server.origin}${API_PREFIX}/checkpoints`, { headers: { [TOKEN_HEADER]: token } }).then((response) => response.text())
    // Graph and search load on their own: the first call to any other route may still load the rest of the API, timed apart.
    const [apiLoadMs] = await timed(unrelated)
    const getMs: number[] = []
    const started = Date.now()
    let state = first
    while (state.partial && Date.now() - started < START_TIMEOUT_MS) {
      getMs.push((await timed(unrelated))[0])
      state = await searchState(server, token, query)
      await sleep(50)
    }
    await page.context().close()
    return { paintMs, orbMs, queryMs, first, apiLoadMs, getMs, buildMs: Date.now() - started }
  } finally {
    await server.stop()
  }
}

/** Knowledge build against reading the files (a listing plus a plain readFileSync loop) and parsing them: its floor. */
async function buildRounds(root: string, rounds: number): Promise<FloorRounds> {
  const figures: FloorRounds = { read: [], build: [], parse: [], markdownIt: [] }
  await KnowledgeIndex.load(root) // warm the page cache and the JIT
  for (let round = 0; round < rounds; round++) {
    // The listing is part of the read, as it is of the build (and of the knowledge bench's floor).
    const [read, [paths, contents]] = await timed(async () => {
      const paths = await listPagePaths(root)
      return [paths, paths.map((page) => fs.readFileSync(path.join(root, page), 'utf8'))] as const
    })
    const [build] = await timed(() => KnowledgeIndex.load(root))
    const parsed = parseTimes(paths.map((page, at) => ({ path: page, content: contents[at]! })))
    figures.read.push(read)
    figures.build.push(build)
    figures.parse.push(parsed.parse)
    figures.markdownIt.push(parsed.markdownIt)
  }
  return figures
}

export async function run(): Promise<void> {
  const blog = syntheticBlog(PAGES)
  const post = blog.names[1]!
  const route = routeOf(post.path)
  const query = post.title.split(' ')[0]!.toLowerCase()
  const plainRoot = await writeSite('plain', blog.pages)
  const metablogRoot = await writeSite('metablog', blog.pages)
  const browser = await launchBrowser()
  const servers: RunningServer[] = []
  try {
    console.log(`dev server on a generated blog of ${PAGES} pages; ${ROUNDS} alternating rounds after one untimed start each`)
    // As many rounds as the knowledge bench's: one garbage collection moves a round's ratio by a tenth or more.
    const knowledge = await buildRounds(metablogRoot, PAGES >= 5_000 ? 7 : 21)
    console.log(`  knowledge build                     read ${ms(median(knowledge.read))} (list + readFileSync)  build ${ms(median(knowledge.build))}  parse ${ms(median(knowledge.parse))}`)
    for (const line of floorLines(knowledge, '    ')) console.log(line)
    const paint = { plain: [] as number[], metablog: [] as number[] }
    const rss = { plain: [] as number[], metablog: [] as number[] }
    const afterWork = { plain: [] as number[], metablog: [] as number[] }
    let peak = { plain: 0, metablog: 0 }
    let siteData = { plain: 0, metablog: 0 }
    const lives: Awaited<ReturnType<typeof liveUpdate>>[] = []
    for (let round = -1; round < ROUNDS; round++) {
      for (const kind of ['plain', 'metablog'] as const) {
        const server = await startServer(kind === 'plain' ? plainRoot : metablogRoot, START_TIMEOUT_MS, { traceGc: true })
        servers.push(server)
        const { page, paintMs } = await firstPaint(browser, server, route)
        if (round >= 0) {
          paint[kind].push(paintMs)
          const memory = await memoryAfterWork(server, kind === 'metablog' ? await tokenOf(server, route) : null)
          rss[kind].push(memory.rss)
          afterWork[kind].push(memory.afterWork)
          const idle = memory.reduced ? `after V8's idle collection ${(memory.waitedMs / 1000).toFixed(0)} s later` : `no idle collection within ${IDLE_TIMEOUT_MS / 1000} s`
          console.log(`    round ${round + 1} ${kind}: first paint ${ms(paintMs)}, RSS ${SETTLE_MS / 1000} s after the work ${mb(memory.afterWork)}, settled ${mb(memory.rss)} (${idle})`)
          peak[kind] = Math.max(peak[kind], peakRss(server.child.pid!))
          siteData[kind] = (await (await fetch(`${server.origin}/@siteData`)).text()).length
          // Three pages in a row: the first write of a session also pays for code loaded on first use.
          if (kind === 'metablog' && round === ROUNDS - 1) {
            for (let write = 0; write < 3; write++) lives.push(await liveUpdate(page, path.posix.dirname(post.path), write))
          }
        }
        await page.context().close()
        await server.stop()
      }
    }
    const during = await firstCalls(browser, metablogRoot, route, query)

    // The median of each round's own ratio: the two starts of a round see the same machine.
    const paintRatio = median(paint.metablog.map((metablog, round) => metablog / paint.plain[round]!))
    const rssRatio = median(rss.metablog) / median(rss.plain)
    const worstGet = during.getMs.length ? Math.max(...during.getMs) : 0
    console.log(`  first paint of a post, from spawn   plain ${ms(median(paint.plain))}  MetaBlog ${ms(median(paint.metablog))}  ${paintRatio.toFixed(2)}× (median round)  target ≤ ${TARGETS.firstPaint}×  ${verdict(paintRatio <= TARGETS.firstPaint)}`)
    console.log(`    rounds: plain ${paint.plain.map(ms).join(', ')}; MetaBlog ${paint.metablog.map(ms).join(', ')}; ratios ${paint.metablog.map((metablog, round) => `${(metablog / paint.plain[round]!).toFixed(2)}×`).join(', ')}`)
    console.log(`  settled RSS, server process tree    plain ${mb(median(rss.plain))}  MetaBlog ${mb(median(rss.metablog))}  ${rssRatio.toFixed(2)}×  target ≤ ${TARGETS.rss}×  ${verdict(rssRatio <= TARGETS.rss)}`)
    const workRatio = median(afterWork.metablog) / median(afterWork.plain)
    console.log(`    ${SETTLE_MS / 1000} s after the work (index built)   plain ${mb(median(afterWork.plain))}  MetaBlog ${mb(median(afterWork.metablog))}  ${workRatio.toFixed(2)}× (before V8 collects what the work left)`)
    console.log(`    peak RSS of the server process    plain ${mb(peak.plain)}  MetaBlog ${mb(peak.metablog)}; /@siteData plain ${(siteData.plain / 1024).toFixed(0)} KB, MetaBlog ${(siteData.metablog / 1024).toFixed(0)} KB`)
    const state = during.first.partial ? `partial, ${during.first.indexed}/${during.first.total} indexed` : 'index already complete'
    console.log(`  the assistant's button, after paint ${ms(during.orbMs)} (first paint ${ms(during.paintMs)} from spawn); from then:`)
    console.log(`  first search query, cold            ${ms(during.queryMs)} (${state}, ${during.first.results.length} results)  target ≤ ${TARGETS.requestMs} ms  ${verdict(during.queryMs <= TARGETS.requestMs)}`)
    console.log(`  first call to the other API routes  ${ms(during.apiLoadMs)} (loaded once the first page is out, or by this call)  target ≤ ${TARGETS.requestMs} ms  ${verdict(during.apiLoadMs <= TARGETS.requestMs)}`)
    const getMedian = during.getMs.length ? median(during.getMs) : 0
    console.log(`  slowest GET while the index builds  ${ms(worstGet)} (median ${ms(getMedian)}, ${during.getMs.length} GETs over ${ms(during.buildMs)})  target ≤ ${TARGETS.requestMs} ms  ${verdict(worstGet <= TARGETS.requestMs)}`)
    const unseen = lives.find((live) => live.renderedMs === null)
    if (lives.length === 0 || unseen) console.log(`  live update PUT → sidebar rendered  never seen (status ${unseen?.status})  FAIL`)
    else {
      const rendered = median(lives.map((live) => live.renderedMs!))
      const refetched = lives.some((live) => live.siteDataRefetched)
      const runs = lives.map((live) => `${ms(live.renderedMs!)} (PUT answered ${ms(live.answeredMs)})`).join(', ')
      console.log(`  live update PUT → sidebar rendered  median ${ms(rendered)} of ${runs}; site data refetched: ${refetched ? 'yes' : 'no'}  target ≤ ${TARGETS.liveUpdateMs} ms, no refetch  ${verdict(rendered <= TARGETS.liveUpdateMs && !refetched)}`)
    }
  } finally {
    for (const server of servers) await server.stop()
    await browser.close()
    fs.rmSync(plainRoot, { recursive: true, force: true })
    fs.rmSync(metablogRoot, { recursive: true, force: true })
  }
}
