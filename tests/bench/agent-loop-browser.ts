// The agent loop as the author runs it: the page's runtime in Chromium, the real `vitepress dev` in a
// process of its own, the model behind the dev server's gateway. The model is the fake OpenAI server
// in this process; each turn it waits MODEL_LATENCY_MS before answering. What the author waits for
// beyond the model, per step, is the time between the model finishing one turn (its connection
// closed) and the next turn's request reaching it. It splits into:
// - the gateway's share: what the model sees minus what the page sees (Resource Timing);
// - the tools' requests on the wire: from the page's fetch to the last byte at the browser's network
//   layer (Resource Timing), while at least one is in flight;
// - the answers' way into the page: from the browser's network layer to the page's JavaScript, which
//   waits behind whatever the main thread is doing (the panel's frames, most of all);
// - the loop's own time: from a turn's whole answer being in the page (its body's stream ended there)
//   to the tools' requests leaving, and from the tools' answers being in the page to the next turn's
//   request leaving. This is the figure the target is for. An init script wraps the page's fetch to
//   see when a response's body stream ends (the product's code is not touched); the loop's code may
//   see it a task later, behind a frame, and that wait counts here too, against the loop.
import fs from 'node:fs/promises'
import path from 'node:path'
import { performance } from 'node:perf_hooks'
import type { CDPSession, Page } from 'playwright-core'
import { startFakeLlm, type FakeLlm, type FakeReply } from '../fixtures/fake-llm-server.js'
import { launchBrowser } from '../helpers/browser.js'
import { copySite, REPO_ROOT } from '../helpers/dev-server.js'
import { freePort, startDevServerProcess } from '../helpers/dev-server-process.js'

const PAGE = 'posts/atomic-file-writes.md'
const ROUTE = '/posts/atomic-file-writes'
const API_PATH = '/__metablog/api'
const CHAT_ROUTE = '/llm/v1/chat/completions'
/** AGENT_BENCH_PROFILE=/tmp/loop writes the page's CPU profile of each step count's last run to /tmp/loop-<steps>.cpuprofile. */
const PROFILE_TO = process.env.AGENT_BENCH_PROFILE
/** AGENT_BENCH_TRACE=/tmp/loop writes a timeline trace (requests, tasks, rendering) of each step count's last run to /tmp/loop-<steps>.json. */
const TRACE_TO = process.env.AGENT_BENCH_TRACE
/** AGENT_BENCH_SHOT=/tmp/loop writes a screenshot of the page at each run's end to /tmp/loop-<steps>.png. */
const SHOT_TO = process.env.AGENT_BENCH_SHOT

export interface BrowserStep {
  /** Beyond the model, per step: model closed → next request received, at the model. */
  perStep: number
  /** Of which in the browser: a turn's last byte at its network layer → the next request leaving the page. */
  pagePerStep: number
  /** Of which the read tools' requests were on the wire (side by side: the time at least one was). */
  toolsPerStep: number
  /** Of which the answers waited between the browser's network layer and the page's JavaScript. */
  deliveryPerStep: number
  /** The rest: the loop's own time, from an answer read in the page to the next request leaving it. */
  loopPerStep: number
  /** The page's main-thread CPU time per step, from a trace: what the machine's load does not inflate. */
  mainThreadCpuPerStep: number
}

function turns(steps: number, marker: string, latency: number): FakeReply[] {
  const calls: FakeReply[] = Array.from({ length: steps - 1 }, (_, step) => ({
    toolCalls: [
      { id: `r${step}`, name: 'read_page', arguments: JSON.stringify({ path: PAGE }) },
      { id: `s${step}`, name: 'search_pages', arguments: JSON.stringify({ query: 'atomic', limit: 5 }) },
    ],
    delayMs: latency,
    usage: { prompt_tokens: 800, completion_tokens: 30 },
  }))
  return [...calls, { text: [marker], delayMs: latency, usage: { prompt_tokens: 900, completion_tokens: 5 } }]
}

/** CPU time of the renderer main thread's top-level tasks in a Chromium trace, in ms. */
function mainThreadCpu(trace: Buffer): number {
  type Event = { name: string; ph: string; pid: number; tid: number; tdur?: number; args?: { name?: string } }
  const { traceEvents } = JSON.parse(trace.toString()) as { traceEvents: Event[] }
  const mains = new Set(traceEvents.filter((event) => event.ph === 'M' && event.args?.name === 'CrRendererMain').map((event) => `${event.pid}:${event.tid}`))
  return traceEvents
    .filter((event) => event.ph === 'X' && event.name === 'ThreadControllerImpl::RunTask' && mains.has(`${event.pid}:${event.tid}`))
    .reduce((sum, event) => sum + (event.tdur ?? 0) / 1000, 0)
}

/**
 * Page-side: [route, fetch called, body stream ended] for each request to the API, on `window.__apiTimes`.
 * A string, not a function: tsx would put its own helpers into a function's source.
 */
const RECORD_API_TIMES = `{
  const times = []
  window.__apiTimes = times
  const fetch = window.fetch.bind(window)
  window.fetch = async (input, init) => {
    const url = new URL(input instanceof Request ? input.url : String(input), location.href)
    if (!url.pathname.startsWith(${JSON.stringify(API_PATH)})) return fetch(input, init)
    const entry = [url.pathname.slice(${API_PATH.length}), performance.now(), NaN]
    times.push(entry)
    const response = await fetch(input, init)
    if (!response.body) {
      entry[2] = performance.now()
      return response
    }
    const read = new TransformStream({ flush: () => void (entry[2] = performance.now()) })
    return new Response(response.body.pipeThrough(read), { status: response.status, statusText: response.statusText, headers: response.headers })
  }
}`

/** A freshly loaded page, the panel open on a new conversation. */
async function freshPanel(page: Page, origin: string): Promise<void> {
  await page.goto(`${origin}${ROUTE}`)
  const panel = page.getByRole('dialog', { name: 'MetaBlog assistant' })
  // The panel stays open across loads in a tab.
  await page.getByRole('button', { name: 'Open MetaBlog assistant' }).waitFor()
  if (!(await panel.isVisible())) await page.getByRole('button', { name: 'Open MetaBlog assistant' }).click()
  await panel.waitFor()
  const fresh = panel.getByRole('button', { name: 'New conversation' })
  if (await fresh.isEnabled()) await fresh.click()
  await page.getByTestId('metablog-message').first().waitFor({ state: 'detached' })
  // Room for the 2 × 40 steps' chat requests and their reads.
  await page.evaluate(() => performance.setResourceTimingBufferSize(2000))
}

async function runOnce(page: Page, cdp: CDPSession, fake: FakeLlm, origin: string, steps: number, round: number, latency: number): Promise<BrowserStep> {
  await freshPanel(page, origin)
  fake.reset()
  const marker = `Read it ${steps} times (round ${round}).`
  fake.enqueue(...turns(steps, marker, latency))
  const profiling = PROFILE_TO !== undefined
  if (profiling) {
    await cdp.send('Profiler.enable')
    await cdp.send('Profiler.start')
  }
  const browser = page.context().browser()!
  await browser.startTracing(page, { categories: TRACE_TO ? ['toplevel', 'devtools.timeline', 'disabled-by-default-devtools.timeline', 'v8.execute', 'loading'] : ['toplevel'] })
  const input = page.getByRole('textbox', { name: 'Message MetaBlog' })
  await input.fill(`read the atomic writes post again and again, round ${round}`)
  await input.press('Enter')
  // Waiting at the model, not by polling the page: a poll would load the page's main thread.
  const deadline = performance.now() + 120_000
  const finished = () => fake.chatRequests.length === steps && fake.chatRequests.every((request) => request.closedAt !== undefined)
  while (!finished()) {
    if (performance.now() > deadline) throw new Error(`the loop did not finish: ${fake.chatRequests.length} of ${steps} model turns`)
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
  await page.getByTestId('metablog-message').filter({ hasText: marker }).waitFor({ timeout: 30_000 })
  await page.getByTestId('metablog-progress').waitFor({ state: 'detached', timeout: 30_000 })
  if (SHOT_TO) await page.screenshot({ path: `${SHOT_TO}-${steps}.png` })
  const traced = await browser.stopTracing()
  if (TRACE_TO) await fs.writeFile(`${TRACE_TO}-${steps}.json`, traced)
  const cpu = mainThreadCpu(traced)
  if (profiling) await fs.writeFile(`${PROFILE_TO}-${steps}.cpuprofile`, JSON.stringify((await cdp.send('Profiler.stop')).profile))
  const requests = fake.chatRequests
  const gaps = requests.slice(1).map((request, index) => request.receivedAt - requests[index]!.closedAt!)
  const timings = await page.evaluate(
    (apiPath) =>
      performance
        .getEntriesByType('resource')
        .filter((entry) => new URL(entry.name).pathname.startsWith(apiPath))
        .map((entry) => [new URL(entry.name).pathname.slice(apiPath.length), entry.startTime, (entry as PerformanceResourceTiming).responseEnd] as const),
    API_PATH,
  )
  const read = await page.evaluate(() => (window as unknown as { __apiTimes: [string, number, number][] }).__apiTimes.splice(0))
  const sum = (values: number[]) => values.reduce((total, value) => total + value, 0)
  /** Per step: the time between a turn's answer and the next turn's request not covered by the tools. */
  const split = (list: (readonly [string, number, number])[]) => {
    const spans = (route: string): Span[] => list.filter(([name]) => name === route).map(([, start, end]) => [start, end])
    const chat = spans(CHAT_ROUTE)
    if (chat.length !== steps) throw new Error(`the page made ${chat.length} model requests, expected ${steps}`)
    const tools = [...spans('/files'), ...spans('/search')]
    const gaps: Span[] = chat.slice(1).map(([start], index) => [chat[index]![1], start])
    const covered = sum(gaps.map((gap) => coveredWithin(gap, tools)))
    const all = sum(gaps.map(([from, to]) => to - from))
    return { all: all / gaps.length, tools: covered / gaps.length, rest: (all - covered) / gaps.length }
  }
  // On the wire (the network layer's last byte), and as the page has them.
  const wire = split(timings)
  const inPage = split(read)
  return {
    perStep: sum(gaps) / gaps.length,
    pagePerStep: wire.all,
    toolsPerStep: wire.tools,
    deliveryPerStep: wire.rest - inPage.rest,
    loopPerStep: inPage.rest,
    mainThreadCpuPerStep: cpu / steps,
  }
}

type Span = [start: number, end: number]

/** How much of `window` at least one of `spans` covers (the tools' requests overlap one another). */
function coveredWithin([from, to]: Span, spans: Span[]): number {
  const clipped = spans
    .map(([start, end]): Span => [Math.max(start, from), Math.min(end, to)])
    .filter(([start, end]) => end > start)
    .sort((a, b) => a[0] - b[0])
  let covered = 0
  let reached = from
  for (const [start, end] of clipped) {
    if (end <= reached) continue
    covered += end - Math.max(start, reached)
    reached = end
  }
  return covered
}

/** The demo blog on a dev server of its own, with the step limit raised for the long loop. */
async function startSite(fake: FakeLlm, maxSteps: number) {
  const root = await copySite(path.join(REPO_ROOT, 'docs'))
  const config = path.join(root, '.vitepress/config.ts')
  const source = await fs.readFile(config, 'utf8')
  const raised = source.replace(/\{\},\s*\)\s*$/, `{ agent: { maxSteps: ${maxSteps} } },\n)\n`)
  if (raised === source) throw new Error('could not set agent.maxSteps in the demo config')
  await fs.writeFile(config, raised)
  const env = { OPENAI_API_KEY: 'sk-bench-not-a-real-key', OPENAI_BASE_URL: fake.baseURL, METABLOG_MODEL: 'gpt-4o-mini' }
  const server = await startDevServerProcess({ root, port: await freePort(), env })
  return {
    origin: server.origin,
    async close() {
      await server.kill()
      await fs.rm(root, { recursive: true, force: true })
    },
  }
}

/** Runs `rounds` loops of each step count (after one warm-up) and returns each count's runs. */
export async function measureInBrowser(stepCounts: number[], rounds: number, latency: number): Promise<Map<number, BrowserStep[]>> {
  const fake = await startFakeLlm()
  const site = await startSite(fake, Math.max(...stepCounts))
  const browser = await launchBrowser()
  try {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } })
    const cdp = await page.context().newCDPSession(page)
    await page.addInitScript(RECORD_API_TIMES)
    await page.goto(`${site.origin}${ROUTE}`)
    await runOnce(page, cdp, fake, site.origin, stepCounts[0]!, 0, latency)
    const results = new Map<number, BrowserStep[]>()
    for (const steps of stepCounts) {
      const runs: BrowserStep[] = []
      for (let round = 1; round <= rounds; round++) runs.push(await runOnce(page, cdp, fake, site.origin, steps, round, latency))
      results.set(steps, runs)
    }
    return results
  } finally {
    await browser.close()
    await site.close()
    await fake.close()
  }
}
