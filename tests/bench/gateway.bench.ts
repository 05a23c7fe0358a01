// Time to first token and per-chunk latency through the dev server's gateway versus straight to
// the upstream, measured side by side in one run against the same fake model.
import fs from 'node:fs/promises'
import path from 'node:path'
import { performance } from 'node:perf_hooks'
import { API_PREFIX, TOKEN_HEADER } from '../../plugin/protocol.js'
import { startFakeLlm, type FakeLlm, type FakeReply } from '../fixtures/fake-llm-server.js'
import { copySite, startDevServer } from '../helpers/dev-server.js'
import { waitForQuietEventLoop } from '../helpers/event-loop.js'

const KEY = 'sk-bench-not-a-real-key'
const CHUNKS = 500
const ROUNDS = 3
const FIRST_TOKEN_SAMPLES = 30
const WARMUP = 4
const TARGET_PER_CHUNK_MS = 2
const TARGET_FIRST_TOKEN_MS = 15

// Role, text, finish and usage events: CHUNKS in all, one every millisecond or so.
const LONG: FakeReply = { text: Array.from({ length: CHUNKS - 3 }, (_, index) => `token${index} `), chunkDelayMs: 1 }
const SHORT: FakeReply = { text: ['first', ' token'] }

interface Target {
  name: string
  url: string
  headers: Record<string, string>
}

function percentile(values: number[], fraction: number): number {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.floor(fraction * sorted.length))] ?? Number.NaN
}

const median = (values: number[]) => percentile(values, 0.5)

/** Streams one answer and notes when each SSE event arrived, in the fake's own clock. */
async function stream(target: Target, fake: FakeLlm, reply: FakeReply) {
  fake.enqueue(reply)
  const started = performance.now()
  const response = await fetch(target.url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...target.headers },
    // Usage asked for on both paths (the gateway would add it anyway), so both streams are the same.
    body: JSON.stringify({ model: 'fake-model', messages: [{ role: 'user', content: 'bench' }], stream: true, stream_options: { include_usage: true } }),
  })
  if (!response.ok || !response.body) throw new Error(`${target.name} answered ${response.status}: ${await response.text()}`)
  const decoder = new TextDecoder()
  const receivedAt: number[] = []
  let buffer = ''
  const reader = response.body.getReader()
  for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) {
    const bytes = chunk.value
    const now = performance.now()
    buffer += decoder.decode(bytes, { stream: true })
    let boundary: number
    while ((boundary = buffer.indexOf('\n\n')) !== -1) {
      if (buffer.startsWith('data: {')) receivedAt.push(now)
      buffer = buffer.slice(boundary + 2)
    }
  }
  const record = fake.chatRequests.at(-1)!
  if (receivedAt.length !== record.sentAt.length) throw new Error(`${target.name}: sent ${record.sentAt.length} events, received ${receivedAt.length}`)
  if (reply === LONG && receivedAt.length !== CHUNKS) throw new Error(`${target.name}: expected ${CHUNKS} events, got ${receivedAt.length}`)
  return {
    // Event 0 is the role; event 1 carries the first token.
    firstToken: receivedAt[1]! - started,
    perChunk: receivedAt.map((at, index) => at - record.sentAt[index]!),
  }
}

function row(label: string, direct: number[], gateway: number[]): string {
  const cells = [median(direct), percentile(direct, 0.95), median(gateway), percentile(gateway, 0.95)].map((value) => value.toFixed(3).padStart(8))
  const added = (median(gateway) - median(direct)).toFixed(3).padStart(8)
  const ratio = (median(gateway) / median(direct)).toFixed(2).padStart(6)
  return `${label.padEnd(22)}${cells.join('')}${added}${ratio}x`
}

export async function run(): Promise<void> {
  const fake = await startFakeLlm({ requireKey: KEY })
  const root = await copySite()
  await fs.writeFile(path.join(root, '.env'), `OPENAI_API_KEY=${KEY}\nOPENAI_BASE_URL=${fake.baseURL}\n`)
  const dev = await startDevServer({
    root,
    env: { OPENAI_API_KEY: undefined, OPENAI_BASE_URL: undefined, METABLOG_MODEL: undefined, METABLOG_TEST_LLM: JSON.stringify({ ollama: false }) },
  })
  const direct: Target = { name: 'direct', url: `${fake.baseURL}/chat/completions`, headers: { authorization: `Bearer ${KEY}` } }
  const gateway: Target = { name: 'gateway', url: `${dev.origin}${API_PREFIX}/llm/v1/chat/completions`, headers: { [TOKEN_HEADER]: dev.token } }
  try {
    // Let the dev server finish its start-up work (dependency scan, first render), then warm both
    // paths: connections, JIT, the gateway's first request. All of it shares this process's event loop.
    await waitForQuietEventLoop({ timeoutMs: 10_000 })
    for (let index = 0; index < WARMUP; index++) for (const target of [direct, gateway]) await stream(target, fake, index % 2 ? SHORT : LONG)

    const firstToken = { direct: [] as number[], gateway: [] as number[] }
    for (let index = 0; index < FIRST_TOKEN_SAMPLES; index++) {
      firstToken.direct.push((await stream(direct, fake, SHORT)).firstToken)
      firstToken.gateway.push((await stream(gateway, fake, SHORT)).firstToken)
    }
    const perChunk = { direct: [] as number[], gateway: [] as number[] }
    for (let round = 0; round < ROUNDS; round++) {
      perChunk.direct.push(...(await stream(direct, fake, LONG)).perChunk)
      perChunk.gateway.push(...(await stream(gateway, fake, LONG)).perChunk)
    }

    const addedPerChunk = median(perChunk.gateway) - median(perChunk.direct)
    const addedFirstToken = median(firstToken.gateway) - median(firstToken.direct)
    console.log(`${CHUNKS} chunks per stream, ${ROUNDS} streams per path, ${FIRST_TOKEN_SAMPLES} first-token samples per path; times in ms`)
    console.log(`${''.padEnd(22)}${'direct'.padStart(16)}${'gateway'.padStart(16)}`)
    console.log(`${''.padEnd(22)}${['median', 'p95', 'median', 'p95', 'added'].map((cell) => cell.padStart(8)).join('')} ratio`)
    console.log(row('time to first token', firstToken.direct, firstToken.gateway))
    console.log(row('per-chunk latency', perChunk.direct, perChunk.gateway))
    const chunkVerdict = addedPerChunk <= TARGET_PER_CHUNK_MS ? 'PASS' : 'FAIL'
    const firstVerdict = addedFirstToken <= TARGET_FIRST_TOKEN_MS ? 'PASS' : 'FAIL'
    console.log(`${chunkVerdict}  gateway adds ${addedPerChunk.toFixed(3)} ms per chunk (median); target ≤ ${TARGET_PER_CHUNK_MS} ms`)
    console.log(`${firstVerdict}  gateway adds ${addedFirstToken.toFixed(3)} ms to the first token (median); target ≤ ${TARGET_FIRST_TOKEN_MS} ms`)
    if (chunkVerdict === 'FAIL' || firstVerdict === 'FAIL') process.exitCode = 1
  } finally {
    await dev.close()
    await fake.close()
  }
}
