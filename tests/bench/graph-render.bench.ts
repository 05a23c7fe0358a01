// The /graph page at 2,000 pages (GRAPH_BENCH_PAGES=5000 for the big one) in real Chromium: it waits
// until the canvas holds every page of the graph, then counts the frames in which the canvas was
// actually drawn while the force layout runs, the main-thread tasks over 50 ms after the graph's data
// arrived, and the time to the first drawn graph; and, from a trace, the CPU each frame costs the main
// thread and each worker.
import fs from 'node:fs/promises'
import path from 'node:path'
import { launchBrowser } from '../helpers/browser.js'
import { copySite, dependenciesSettled, startDevServer } from '../helpers/dev-server.js'
import { syntheticBlog } from './knowledge-synthetic-blog.js'

const PAGES = Number(process.env.GRAPH_BENCH_PAGES ?? 2000)
const TARGET_FRAMES_PER_SECOND = 30
const TARGET_LONGEST_TASK_MS = 50
const WAIT_MS = 120_000

// Installed before the page's own scripts. A string, not a function: tsx would wrap a function with
// helpers the page does not have. A draw is a clearRect on the graph's canvas; `frame` numbers the
// animation frames, so several draws in one frame count once.
const INSTRUMENT = `(() => {
  const bench = (window.__graphBench = { draws: [], longTasks: [], frame: 0 })
  // Vite's dev server loads hundreds of modules: keep the graph request's timing past the default 250.
  performance.setResourceTimingBufferSize(100000)
  new PerformanceObserver((list) => list.getEntries().forEach((entry) => bench.longTasks.push({ start: entry.startTime, duration: entry.duration }))).observe({ type: 'longtask', buffered: true })
  const tick = () => { bench.frame++; requestAnimationFrame(tick) }
  requestAnimationFrame(tick)
  const clearRect = CanvasRenderingContext2D.prototype.clearRect
  CanvasRenderingContext2D.prototype.clearRect = function (...args) {
    if (this.canvas.closest && this.canvas.closest('.metablog-graph')) bench.draws.push({ time: performance.now(), frame: bench.frame, nodes: Number(this.canvas.dataset.nodes || 0), layout: this.canvas.dataset.layout || '' })
    return clearRect.apply(this, args)
  }
})()`

interface Draw {
  time: number
  frame: number
  nodes: number
  layout: string
}

interface Measured {
  draws: Draw[]
  longTasks: { start: number; duration: number }[]
  /** When the whole graph's response ended, in the page's clock. */
  arrived: number
}

export async function run(): Promise<void> {
  const root = await copySite()
  const { pages } = syntheticBlog(PAGES)
  for (const page of pages) {
    await fs.mkdir(path.dirname(path.join(root, page.path)), { recursive: true })
    await fs.writeFile(path.join(root, page.path), page.content)
  }
  // Like a real graph page: full width, no 2,000-entry sidebar beside it.
  await fs.writeFile(path.join(root, 'graph.md'), '---\nsidebar: false\naside: false\n---\n\n# Graph\n\n<KnowledgeGraph />\n')
  const dev = await startDevServer({ root })
  const browser = await launchBrowser()
  try {
    // What the page must end up drawing: every page the dev server's graph holds.
    const expected = ((await dev.api('/graph')).json as { nodes: unknown[]; edges: unknown[] })
    const nodes = expected.nodes.length
    if (nodes < PAGES * 0.9) throw new Error(`the dev server's graph holds ${nodes} pages, expected about ${PAGES}`)
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } })
    // The first visit to a 5,000-page dev server on a loaded 2-core machine can take well over 30 s.
    page.setDefaultTimeout(WAIT_MS)
    await page.addInitScript(INSTRUMENT)
    // A first visit lets Vite optimize the page's dependencies (it reloads once); measure the second.
    await page.goto(`${dev.origin}/graph`)
    await page.waitForLoadState('networkidle')
    await dependenciesSettled(dev.root)
    // A trace of the measured visit gives the main thread's CPU time, which the machine's load does not inflate.
    await browser.startTracing(page, { categories: ['toplevel', 'blink.user_timing'] })
    await page.goto(`${dev.origin}/graph`)
    try {
      await page.waitForFunction(`window.__graphBench.draws.some((draw) => draw.nodes === ${nodes})`, null, { timeout: WAIT_MS, polling: 100 })
    } catch {
      const drawn = await page.evaluate('Math.max(0, ...window.__graphBench.draws.map((draw) => draw.nodes))')
      throw new Error(`the graph page never drew all ${nodes} pages within ${WAIT_MS / 1000} s (at most ${String(drawn)} drawn)`)
    }
    await page.waitForFunction(`document.querySelector('.metablog-graph canvas')?.dataset.layout === 'settled'`, null, { timeout: WAIT_MS, polling: 100 })
    // The last draw (labels, once settled) and any task after it.
    await page.waitForTimeout(1000)
    const measured = (await page.evaluate(`({
      draws: window.__graphBench.draws,
      longTasks: window.__graphBench.longTasks,
      arrived: Math.max(0, ...performance.getEntriesByType('resource').filter((entry) => /\\/__metablog\\/api\\/graph$/.test(new URL(entry.name).pathname) && !new URL(entry.name).search).map((entry) => entry.responseEnd)),
    })`)) as Measured
    const traced = await browser.stopTracing()
    await fs.writeFile(path.join(path.dirname(root), `graph-${PAGES}.trace.json`), traced)
    const trace = tracedTasks(traced)
    const label = await page.locator('.metablog-graph canvas').getAttribute('aria-label')
    await page.screenshot({ path: path.join(path.dirname(root), `graph-${PAGES}.png`) })
    report(measured, nodes, label ?? '', trace)
  } finally {
    await browser.close()
    await dev.close()
  }
}

interface Task {
  /** In the page's clock (ms after navigation). */
  start: number
  wall: number
  cpu: number
}

/** The top-level tasks of the page's main thread and of each of its workers (the layout's, the painter's), from a Chromium trace, in the page's clock. */
function tracedTasks(buffer: Buffer): { main: Task[]; workers: Task[][] } {
  type Event = { name: string; ph: string; pid: number; tid: number; ts: number; dur?: number; tdur?: number; args?: { name?: string; data?: { documentLoaderURL?: string } } }
  const { traceEvents } = JSON.parse(buffer.toString()) as { traceEvents: Event[] }
  // The page's performance.now() counts from its navigationStart, marked on its main thread.
  const navigation = traceEvents.filter((event) => event.name === 'navigationStart' && /\/graph$/.test(event.args?.data?.documentLoaderURL ?? '')).at(-1)
  if (!navigation) return { main: [], workers: [] }
  const workerThreads = new Set(traceEvents.filter((event) => event.ph === 'M' && event.pid === navigation.pid && event.args?.name === 'DedicatedWorker thread').map((event) => event.tid))
  const tasks = traceEvents.filter((event) => event.ph === 'X' && event.name === 'ThreadControllerImpl::RunTask' && event.pid === navigation.pid)
  const toTask = (event: Event): Task => ({ start: (event.ts - navigation.ts) / 1000, wall: (event.dur ?? 0) / 1000, cpu: (event.tdur ?? 0) / 1000 })
  return { main: tasks.filter((event) => event.tid === navigation.tid).map(toTask), workers: [...workerThreads].map((thread) => tasks.filter((event) => event.tid === thread).map(toTask)) }
}

function report({ draws, longTasks, arrived }: Measured, nodes: number, label: string, { main: tasks, workers }: { main: Task[]; workers: Task[][] }): void {
  const full = draws.filter((draw) => draw.nodes === nodes)
  const first = full[0]!
  // While the layout runs: from the first drawn whole graph to the last draw of a moving layout.
  const moving = full.filter((draw) => draw.layout === 'running')
  const end = moving.at(-1)?.time ?? first.time
  const seconds = Math.max(0.001, (end - first.time) / 1000)
  const frames = new Set(moving.map((draw) => draw.frame)).size
  const perSecond = frames / seconds
  const late = longTasks.filter((task) => task.start + task.duration > arrived).map((task) => Math.round(task.duration))
  const longest = Math.max(0, ...late)
  const total = late.reduce((sum, duration) => sum + duration, 0)
  console.log(`graph page, ${label}, headless Chromium (software rendering)`)
  console.log(`  graph data arrived at ${arrived.toFixed(0)} ms; first drawn graph of all ${nodes} pages at ${first.time.toFixed(0)} ms after navigation`)
  console.log(`  layout ran ${seconds.toFixed(2)} s after the first drawn graph: ${frames} frames drawn (${draws.length} draws in all)`)
  console.log(`  frames drawn per second while the layout runs ${perSecond.toFixed(1)}  target ≥ ${TARGET_FRAMES_PER_SECOND}  ${perSecond >= TARGET_FRAMES_PER_SECOND ? 'PASS' : 'FAIL'}`)
  console.log(`  main-thread tasks over 50 ms after the data arrived: ${late.length ? `${late.join(', ')} ms (${total} ms in all)` : 'none'}`)
  console.log(`  longest main-thread task after the data arrived ${longest} ms  target ≤ ${TARGET_LONGEST_TASK_MS} ms  ${longest <= TARGET_LONGEST_TASK_MS ? 'PASS' : 'FAIL'}`)
  // The same run in CPU time: what the page costs, apart from how loaded the machine is.
  const during = tasks.filter((task) => task.start + task.wall > first.time && task.start < end)
  const after = tasks.filter((task) => task.start + task.wall > arrived)
  if (!during.length) return console.log('  (no main-thread trace to read CPU time from)')
  const cpu = during.reduce((sum, task) => sum + task.cpu, 0)
  const wall = during.reduce((sum, task) => sum + task.wall, 0)
  const heaviest = after.reduce((top, task) => (task.cpu > top.cpu ? task : top), after[0]!)
  console.log(`  main-thread CPU while the layout runs: ${(cpu / Math.max(1, frames)).toFixed(1)} ms per drawn frame (${cpu.toFixed(0)} ms CPU in ${wall.toFixed(0)} ms of tasks, ${(wall / Math.max(1, cpu)).toFixed(1)}× stretched by the machine's load)`)
  const perWorker = workers
    .map((thread) => thread.filter((task) => task.start + task.wall > first.time && task.start < end).reduce((sum, task) => sum + task.cpu, 0) / Math.max(1, frames))
    .filter((perFrame) => perFrame > 0.05)
    .sort((a, b) => b - a)
  console.log(`  worker CPU while the layout runs (the layout's, the painter's): ${perWorker.map((perFrame) => perFrame.toFixed(1)).join(', ') || 'none'} ms per drawn frame`)
  console.log(`  most CPU in one main-thread task after the data arrived: ${heaviest.cpu.toFixed(0)} ms (it took ${heaviest.wall.toFixed(0)} ms)`)
}
