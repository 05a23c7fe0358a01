// Agent loop overhead per step, model time excluded: the model is an in-process client that
// answers at once, so what is timed is the runtime's own work per step (streaming parse, argument
// checks, tools, checkpoints, chat state), first against an in-memory API, then the real dev server.
import type OpenAI from 'openai'
import { performance } from 'node:perf_hooks'
import { createMetaBlogApi, type MetaBlogApi } from '../../client/api/metablog-api.js'
import { AgentRuntime } from '../../client/runtime/agent-runtime.js'
import { createPlainChatState } from '../../client/runtime/chat-state.js'
import { createLogger } from '../../client/runtime/logger.js'
import { builtinTools } from '../../client/tools/index.js'
import { streamChunks, type FakeReply } from '../fixtures/fake-llm-server.js'
import { startDevServer } from '../helpers/dev-server.js'

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

/** An OpenAI client whose answers come from memory: it counts the time spent in it as model time. */
function instantModel(turns: object[][], clock: { modelMs: number }): OpenAI {
  let index = 0
  return {
    chat: {
      completions: {
        async create() {
          const chunks = turns[index++]!
          return (async function* () {
            for (const chunk of chunks) {
              const started = performance.now()
              yield chunk
              clock.modelMs -= performance.now() - started
            }
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
    saveCheckpoint: async (checkpoint: { taskId: string }) => void checkpoints.set(checkpoint.taskId, JSON.parse(JSON.stringify(checkpoint))),
    deleteCheckpoint: async (taskId: string) => ({ deleted: checkpoints.delete(taskId) }),
    releaseLocks: async () => ({ released: [] }),
    listPages: async () => ({ pages: [{ path: PAGE, title: 'Getting Started', hash: 'h', tags: [], draft: false }] }),
    readFile: async (path: string) => ({ path, content, hash: 'h1' }),
    readHash: async () => 'h1',
    search: async () => ({ results: [{ path: PAGE, title: 'Getting Started', score: 1, snippet: 'Run npm install.' }] }),
  } as unknown as MetaBlogApi
}

/** Time spent waiting on checkpoint saves, which the dev server writes to disk with fsync. */
const saves = { ms: 0 }

function timedSaves(api: MetaBlogApi): MetaBlogApi {
  return {
    ...api,
    async saveCheckpoint(...args: Parameters<MetaBlogApi['saveCheckpoint']>) {
      const started = performance.now()
      try {
        return await api.saveCheckpoint(...args)
      } finally {
        saves.ms += performance.now() - started
      }
    },
  }
}

async function measure(api: MetaBlogApi, steps: number): Promise<{ perStep: number; savePerStep: number }> {
  const clock = { modelMs: 0 }
  saves.ms = 0
  const runtime = new AgentRuntime({
    api: timedSaves(api),
    llm: instantModel(script(steps), clock),
    tools: builtinTools,
    maxSteps: steps,
    state: createPlainChatState(),
    logger: createLogger({ sink: null }),
  })
  await runtime.initialize()
  const started = performance.now()
  const record = await runtime.processInput('read the getting started page again and again', { currentFile: PAGE })
  const total = performance.now() - started
  if (record?.outcome !== 'COMPLETED') throw new Error(`the loop ended ${record?.outcome}`)
  return { perStep: (total + clock.modelMs) / steps, savePerStep: saves.ms / steps }
}

async function report(label: string, api: MetaBlogApi): Promise<void> {
  console.log(`  ${label}`)
  await measure(api, STEP_COUNTS[0]!) // warm-up: JIT and the first connections
  for (const steps of STEP_COUNTS) {
    const runs: { perStep: number; savePerStep: number }[] = []
    for (let round = 0; round < ROUNDS; round++) runs.push(await measure(api, steps))
    const { perStep, savePerStep } = runs.sort((a, b) => a.perStep - b.perStep)[Math.floor(ROUNDS / 2)]!
    const verdict = `target ≤ ${TARGET_MS} ms  ${perStep <= TARGET_MS ? 'PASS' : 'FAIL'}`
    // Saves overlap tool calls (a read's save is not waited for), so the two figures do not add up.
    console.log(`    ${steps} steps (2 tool calls each): ${perStep.toFixed(2)} ms per step, median of ${ROUNDS} runs  ${verdict}  (checkpoint saves in flight: ${savePerStep.toFixed(1)} ms per step)`)
  }
}

export async function run(): Promise<void> {
  console.log('agent loop overhead per step, model time excluded')
  await report('runtime alone (in-memory API)', memoryApi())
  const dev = await startDevServer()
  try {
    const api = createMetaBlogApi({ origin: dev.origin, token: dev.token })
    // The status comes from the dev server, which has no model: the runtime is told it has one.
    const withModel = { ...api, llmStatus: memoryApi().llmStatus } as MetaBlogApi
    await report('with the real dev-server API (file reads, search and checkpoint saves over HTTP, on disk)', withModel)
  } finally {
    await dev.close()
  }
}
