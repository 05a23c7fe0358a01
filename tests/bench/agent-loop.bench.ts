// Agent loop overhead per step, model time excluded: what the author waits for beyond the model.
// First the runtime alone in Node against an in-memory API: its own work per step (streaming parse,
// argument checks, the two tools, chat state, checkpoint patches). The model is an in-process client
// that answers every turn after a fixed simulated latency (MODEL_LATENCY_MS, timed by setTimeout, so a
// late timer counts against the runtime); the figure is (wall time − steps × MODEL_LATENCY_MS) / steps.
// Then the product as the author runs it (agent-loop-browser.ts): the page's runtime in Chromium, the
// real dev server in its own process, the model behind its gateway. There the wait beyond the model is
// split into the gateway (its own bench times it), the tools' requests on the wire (the work the model
// asked for), the answers' way from the browser's network layer into the page's JavaScript, and the
// loop's own time in the page (an answer read → the next request sent), which carries the target.
import type OpenAI from 'openai'
import { performance } from 'node:perf_hooks'
import type { Checkpoint, CheckpointPatch } from '../../plugin/protocol.js'
import type { MetaBlogApi } from '../../client/api/metablog-api.js'
import { AgentRuntime } from '../../client/runtime/agent-runtime.js'
import { createPlainChatState } from '../../client/runtime/chat-state.js'
import { createLogger } from '../../client/runtime/logger.js'
import { builtinTools } from '../../client/tools/index.js'
import { streamChunks, type FakeReply } from '../fixtures/fake-llm-server.js'
import { measureInBrowser, type BrowserStep } from './agent-loop-browser.js'

/** The default step limit, and a long loop whose checkpoint has grown large. */
const STEP_COUNTS = [10, 40]
const ROUNDS = 5
const TARGET_MS = 5
const PAGE = 'guide/getting-started.md'

/** Each turn reads the page and searches; the last one answers. Chunks are built before timing starts. */
function script(steps: number): object[][] {
  const turns: FakeReply[] = Array.from({ length: steps - 1 }, (_, step) => ({
    toolCalls: [
      { id: `r${step}`, name: 'read_page', arguments: JSON.stringify({ path: PAGE }) },
      { id: `s${step}`, name: 'search_pages', arguments: JSON.stringify({ query: 'install', limit: 5 }) },
    ],
    usage: { prompt_tokens: 800, completion_tokens: 30 },
  }))
  turns.push({ text: ['Done', ' reading.'], usage: { prompt_tokens: 900, completion_tokens: 5 } })
  return turns.map((turn) => streamChunks(turn, 'gpt-4o-mini', true))
}

/** A model's latency per turn: far below a real model's (300 ms and more), so a slow save still shows. */
const MODEL_LATENCY_MS = 30

/** An OpenAI client whose answers come from memory, each after MODEL_LATENCY_MS. */
function instantModel(turns: object[][]): OpenAI {
  let index = 0
  return {
    chat: {
      completions: {
        async create() {
          const chunks = turns[index++]!
          await new Promise((resolve) => setTimeout(resolve, MODEL_LATENCY_MS))
          return (async function* () {
            yield* chunks
          })()
        },
      },
    },
  } as unknown as OpenAI
}

function memoryApi(): MetaBlogApi {
  const content = '---\ntitle: Getting Started\n---\n\n# Getting Started\n\n' + 'Run `npm install`. '.repeat(400)
  const checkpoints = new Map<string, unknown>()
  return {
    llmStatus: async () => ({ configured: true, provider: 'openai', model: 'gpt-4o-mini', baseURLHost: 'x', prices: {}, instructions: null }),
    listCheckpoints: async () => ({ checkpoints: [...checkpoints.values()] }),
    // Copies what it is sent, as a server would read it: whole, or a patch of what is new.
    saveCheckpoint: async (checkpoint: { taskId: string }) => void checkpoints.set(checkpoint.taskId, JSON.parse(JSON.stringify(checkpoint))),
    appendCheckpoint: async (taskId: string, patch: CheckpointPatch) => {
      const held = checkpoints.get(taskId) as Checkpoint
      const copy = JSON.parse(JSON.stringify(patch)) as CheckpointPatch
      // In place, as the server's append is: O(what is new), not O(history).
      held.records ??= []
      held.records.length = copy.base.records
      held.records.push(...copy.records)
      return { taskId, updatedAt: Date.now() }
    },
    deleteCheckpoint: async (taskId: string) => ({ deleted: checkpoints.delete(taskId) }),
    releaseLocks: async () => ({ released: [] }),
    listPages: async () => ({ pages: [{ path: PAGE, title: 'Getting Started', hash: 'h', tags: [], draft: false }] }),
    readFile: async (path: string) => ({ path, content, hash: 'h1' }),
    readHash: async () => 'h1',
    search: async () => ({ results: [{ path: PAGE, title: 'Getting Started', score: 1, snippet: 'Run npm install.' }] }),
  } as unknown as MetaBlogApi
}

/** Time checkpoint saves took (in flight, mostly hidden behind the model), what they carried, and the read tools' requests. */
const spent = { saveMs: 0, bytes: 0, toolMs: 0 }

/** The read tools' requests overlap: their time is the wall time during which at least one was in flight. */
const toolsInFlight = { count: 0, since: 0 }

function timed(api: MetaBlogApi): MetaBlogApi {
  const wrap =
    <Args extends unknown[], Result>(call: (...args: Args) => Promise<Result>, onDone: (ms: number, args: Args) => void) =>
    async (...args: Args): Promise<Result> => {
      const started = performance.now()
      try {
        return await call(...args)
      } finally {
        onDone(performance.now() - started, args)
      }
    }
  const saved = (body: unknown) => (ms: number) => {
    spent.saveMs += ms
    spent.bytes += JSON.stringify(body).length
  }
  const tool =
    <Args extends unknown[], Result>(call: (...args: Args) => Promise<Result>) =>
    async (...args: Args): Promise<Result> => {
      if (toolsInFlight.count++ === 0) toolsInFlight.since = performance.now()
      try {
        return await call(...args)
      } finally {
        if (--toolsInFlight.count === 0) spent.toolMs += performance.now() - toolsInFlight.since
      }
    }
  return {
    ...api,
    saveCheckpoint: (checkpoint, options) => wrap(api.saveCheckpoint, saved(checkpoint))(checkpoint, options),
    appendCheckpoint: (taskId, patch, options) => wrap(api.appendCheckpoint, saved(patch))(taskId, patch, options),
    readFile: tool(api.readFile),
    search: tool(api.search),
  }
}

interface Run {
  perStep: number
  cpuPerStep: number
  toolPerStep: number
  savePerStep: number
  bytesPerStep: number
}

async function measure(api: MetaBlogApi, steps: number): Promise<Run> {
  Object.assign(spent, { saveMs: 0, bytes: 0, toolMs: 0 })
  const runtime = new AgentRuntime({
    api: timed(api),
    llm: instantModel(script(steps)),
    tools: builtinTools,
    maxSteps: steps,
    state: createPlainChatState(),
    logger: createLogger({ sink: null }),
  })
  await runtime.initialize()
  const cpu = process.cpuUsage()
  const started = performance.now()
  const record = await runtime.processInput('read the getting started page again and again', { currentFile: PAGE })
  const total = performance.now() - started
  const { user, system } = process.cpuUsage(cpu)
  if (record?.outcome !== 'COMPLETED') throw new Error(`the loop ended ${record?.outcome}`)
  return {
    perStep: (total - steps * MODEL_LATENCY_MS) / steps,
    cpuPerStep: (user + system) / 1000 / steps,
    toolPerStep: spent.toolMs / steps,
    savePerStep: spent.saveMs / steps,
    bytesPerStep: spent.bytes / steps,
  }
}

async function report(label: string, api: MetaBlogApi): Promise<void> {
  console.log(`  ${label}`)
  // Warm-up: JIT.
  for (let round = 0; round < 2; round++) await measure(api, STEP_COUNTS[0]!)
  for (const steps of STEP_COUNTS) {
    const runs: Run[] = []
    for (let round = 0; round < ROUNDS; round++) runs.push(await measure(api, steps))
    const { perStep, cpuPerStep, toolPerStep, savePerStep, bytesPerStep } = medianOf(runs, (run) => run.perStep)
    const verdict = `target ≤ ${TARGET_MS} ms  ${perStep <= TARGET_MS ? 'PASS' : 'FAIL'}`
    console.log(`    ${steps} steps (2 tool calls each): ${perStep.toFixed(2)} ms per step beyond the model, median of ${ROUNDS} runs  ${verdict}`)
    // Saves overlap the model's time and the tools, so these do not add up.
    console.log(
      `      of which the read tools' requests (in flight, side by side) ${toolPerStep.toFixed(2)} ms; CPU ${cpuPerStep.toFixed(2)} ms per step;` +
        ` checkpoint saves in flight ${savePerStep.toFixed(2)} ms, ${(bytesPerStep / 1024).toFixed(1)} KiB sent per step`,
    )
  }
}

function medianOf<T>(runs: T[], key: (run: T) => number): T {
  return [...runs].sort((a, b) => key(a) - key(b))[Math.floor(runs.length / 2)]!
}

function reportBrowser(results: Map<number, BrowserStep[]>): void {
  console.log('  in Chromium: the page\'s runtime and panel, the real dev server (own process) and its model gateway')
  for (const [steps, runs] of results) {
    const { perStep, pagePerStep, toolsPerStep, deliveryPerStep, loopPerStep, mainThreadCpuPerStep } = medianOf(runs, (run) => run.loopPerStep)
    const verdict = `target ≤ ${TARGET_MS} ms  ${loopPerStep <= TARGET_MS ? 'PASS' : 'FAIL'}`
    console.log(`    ${steps} steps (2 tool calls each): the loop's own ${loopPerStep.toFixed(2)} ms per step, median of ${runs.length} runs  ${verdict}`)
    console.log(`      runs: ${runs.map((run) => run.loopPerStep.toFixed(1)).join(', ')} ms`)
    console.log(
      `      the author waits ${perStep.toFixed(1)} ms a step beyond the model: ${(perStep - pagePerStep).toFixed(1)} ms the gateway both ways, ` +
        `${toolsPerStep.toFixed(1)} ms the tools' requests on the wire (side by side), ${deliveryPerStep.toFixed(1)} ms answers on their way into the page's JavaScript, ` +
        `the loop's own ${loopPerStep.toFixed(1)} ms; ` +
        `the page's main thread used ${mainThreadCpuPerStep.toFixed(1)} ms of CPU a step`,
    )
  }
}

export async function run(): Promise<void> {
  console.log(`agent loop overhead per step, model time excluded (each turn's model answers after ${MODEL_LATENCY_MS} ms)`)
  await report('runtime alone (in-memory API, in Node)', memoryApi())
  reportBrowser(await measureInBrowser(STEP_COUNTS, ROUNDS, MODEL_LATENCY_MS))
}
