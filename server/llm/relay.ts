import type { ServerResponse } from 'node:http'
import type { ReadableStreamDefaultReader, ReadableStreamReadResult } from 'node:stream/web'
import type OpenAI from 'openai'
import type { ChatCompletionCreateParams } from 'openai/resources'
import type { MetaBlogError } from '../errors.js'
import { StreamCutError, incompleteStreamError, judgeFailure, type FailureContext } from './errors.js'
import type { Exchange } from './exchange.js'
import { redactorFor } from './redact.js'
import { withRetries, type RetryPolicy } from './retry.js'
import { SseFramer } from './sse-framer.js'

type ChunkReader = ReadableStreamDefaultReader<Uint8Array>

export interface RelaySettings {
  client: OpenAI
  policy: RetryPolicy
  requestTimeoutMs: number
  context: FailureContext
  log: (message: string) => void
}

/** What the upstream sent before anything went to the page: enough to know the answer has begun. */
interface Opened {
  upstream: Response
  reader?: ChunkReader
  first: Uint8Array
}

/** A read that turns a broken connection into StreamCutError, unless the exchange was stopped on purpose. */
async function readChunk(reader: ChunkReader, exchange: Exchange): Promise<ReadableStreamReadResult<Uint8Array>> {
  try {
    return await reader.read()
  } catch (error) {
    throw exchange.stopped ? error : new StreamCutError(error)
  }
}

/**
 * One attempt: the upstream's headers and its first bytes. Nothing has reached the page yet,
 * so any failure up to here may be retried.
 */
async function open(params: Record<string, unknown>, exchange: Exchange, settings: RelaySettings): Promise<Opened> {
  const streaming = params.stream === true
  // A non-streamed answer sends its headers only when it is complete: no idle clock until then.
  if (streaming) exchange.touch()
  const upstream = await settings.client.chat.completions
    .create(params as unknown as ChatCompletionCreateParams, { signal: exchange.signal, timeout: settings.requestTimeoutMs })
    .asResponse()
  exchange.touch()
  if (!upstream.body) throw new StreamCutError(new Error('the answer had no body'))
  const reader = upstream.body.getReader() as ChunkReader
  if (!streaming) {
    const chunks: Uint8Array[] = []
    try {
      for (let result = await readChunk(reader, exchange); !result.done; result = await readChunk(reader, exchange)) {
        exchange.touch()
        chunks.push(result.value)
      }
    } catch (error) {
      // Cut after the body began: asking again would pay for the answer twice.
      if (error instanceof StreamCutError && chunks.some((chunk) => chunk.byteLength > 0)) throw new StreamCutError(error.cause, true)
      throw error
    }
    return { upstream, first: Buffer.concat(chunks) }
  }
  const first = await readChunk(reader, exchange)
  if (first.done) throw new StreamCutError(new Error('the answer was empty'))
  exchange.touch()
  return { upstream, reader, first: first.value }
}

function passHeaders(upstream: Response, headers: Record<string, string>, redact: (text: string) => string): Record<string, string> {
  const requestId = upstream.headers.get('x-request-id')
  return requestId ? { ...headers, 'x-request-id': redact(requestId) } : headers
}

/**
 * Bytes of an answer without any form of the key. Whole events or a whole body only: a key cut
 * in two by a chunk boundary would slip through. Unchanged bytes are passed on as they came.
 */
function redactBytes(bytes: Buffer, redact: (text: string) => string): Buffer {
  const text = bytes.toString('utf8')
  const clean = redact(text)
  return clean === text ? bytes : Buffer.from(clean)
}

/** Resolves when the page has taken the buffered bytes, or has gone, or the exchange stopped. */
function drained(response: ServerResponse, signal: AbortSignal): Promise<void> {
  if (response.destroyed || signal.aborted) return Promise.resolve()
  return new Promise((resolve) => {
    const done = () => {
      response.off('drain', done)
      response.off('close', done)
      signal.removeEventListener('abort', done)
      resolve()
    }
    response.on('drain', done)
    response.on('close', done)
    signal.addEventListener('abort', done)
  })
}

/** Ends a started stream with an error event and no [DONE], so no client mistakes it for success. */
export function endWithError(response: ServerResponse, error: MetaBlogError): void {
  if (response.writableEnded) return
  response.end(`event: error\ndata: ${JSON.stringify(error.toBody())}\n\n`)
}

/** Forwards every whole event the moment it arrives. Throws on failure; the caller tells the page. */
async function forwardStream(opened: Opened, response: ServerResponse, exchange: Exchange, settings: RelaySettings): Promise<void> {
  const reader = opened.reader!
  const framer = new SseFramer()
  const redact = redactorFor(settings.context.secrets)
  const clean = (bytes: Buffer) => redactBytes(bytes, (text) => redact.redact(text))
  response.writeHead(
    200,
    passHeaders(
      opened.upstream,
      {
        'Content-Type': 'text/event-stream; charset=utf-8',
        'Cache-Control': 'no-cache, no-transform',
        'X-Accel-Buffering': 'no',
      },
      (text) => redact.redact(text),
    ),
  )
  // Each whole event is redacted on its own: a key the upstream spreads over several events (one
  // token each) is not caught, but then the upstream itself is hostile, and the model never sees the key.
  let events = framer.push(opened.first)
  if (events) response.write(clean(events))
  try {
    for (let result = await readChunk(reader, exchange); !result.done; result = await readChunk(reader, exchange)) {
      exchange.touch()
      events = framer.push(result.value)
      if (events && !response.write(clean(events))) await drained(response, exchange.signal)
    }
  } catch (error) {
    // A connection that breaks after [DONE] lost nothing.
    if (!framer.sawDone || exchange.stopped) throw error
  }
  const tail = framer.finish()
  if (tail) response.write(clean(tail))
  if (!framer.sawDone) throw incompleteStreamError(settings.context)
  response.end()
}

/**
 * Relays one chat-completions call: retries 429, 5xx and connection failures while no byte of
 * the answer's body has arrived, then forwards the answer as it arrives. Throws when it fails; by then
 * the response may have started (the caller checks headersSent).
 */
export async function relay(params: Record<string, unknown>, response: ServerResponse, exchange: Exchange, settings: RelaySettings): Promise<void> {
  const opened = await withRetries(() => open(params, exchange, settings), settings.policy, {
    judge: judgeFailure,
    signal: exchange.signal,
    onRetry({ error, retry, delayMs }) {
      exchange.pause()
      const status = (error as { status?: number }).status
      const what = status ? `answered ${status}` : error instanceof StreamCutError ? 'broke off before answering' : 'could not be reached'
      settings.log(`[metablog] the model at ${settings.context.host} ${what}; retry ${retry} of ${settings.policy.maxRetries} in ${delayMs} ms`)
    },
  })
  if (opened.reader) return forwardStream(opened, response, exchange, settings)
  // A whole answer: redacted as one piece, whatever its status.
  const redact = redactorFor(settings.context.secrets)
  const body = redactBytes(Buffer.from(opened.first), (text) => redact.redact(text))
  response.writeHead(
    opened.upstream.status,
    passHeaders(
      opened.upstream,
      {
        'Content-Type': opened.upstream.headers.get('content-type') ?? 'application/json',
        'Content-Length': String(body.byteLength),
        'Cache-Control': 'no-store',
      },
      (text) => redact.redact(text),
    ),
  )
  response.end(body)
}
