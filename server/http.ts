import type { IncomingMessage, ServerResponse } from 'node:http'
import { MetaBlogError, httpStatus } from './errors.js'

export const DEFAULT_BODY_LIMIT = 2 * 1024 * 1024

export function sendJson(response: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body)
  response.writeHead(status, {
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': Buffer.byteLength(text),
    'Cache-Control': 'no-store',
    ...headers,
  })
  response.end(text)
}

/**
 * Answers with the contract's error body; anything that is not a MetaBlogError becomes ERR_INTERNAL
 * and is logged. `redact` cleans what is sent and logged when the error may hold a secret.
 */
export function sendError(response: ServerResponse, error: unknown, log?: (message: string) => void, redact: (text: string) => string = (text) => text): void {
  const known =
    error instanceof MetaBlogError
      ? error
      : new MetaBlogError('ERR_INTERNAL', redact(`MetaBlog failed unexpectedly: ${(error as Error)?.message ?? String(error)}. See the dev server's terminal.`))
  if (!(error instanceof MetaBlogError)) log?.(redact(`[metablog] ${(error as Error)?.stack ?? String(error)}`))
  if (response.headersSent) {
    response.destroy()
    return
  }
  sendJson(response, httpStatus(known.code), known.toBody())
}

/** Whether a body comes with the request, whatever the method (a DELETE may carry one too). */
export function hasBody(request: IncomingMessage): boolean {
  if (request.method === 'POST' || request.method === 'PUT' || request.method === 'PATCH') return true
  return request.headers['transfer-encoding'] !== undefined || Number(request.headers['content-length'] ?? 0) > 0
}

/** How long a request's headers, and then its body, may take to arrive. */
export const DEFAULT_REQUEST_TIMEOUT_MS = 5_000

export function requestTimeoutError(timeoutMs: number): MetaBlogError {
  return new MetaBlogError(
    'ERR_TIMEOUT',
    `The request did not arrive within ${timeoutMs / 1000} s, so the dev server stopped waiting for it. Send the whole request at once and try again.`,
  )
}

/**
 * Reads a JSON body: checks the content type, enforces the size limit while streaming, then parses.
 * A body that trickles in is cut after `timeoutMs`, so a slow client cannot hold the request open.
 */
export async function readJsonBody(request: IncomingMessage, limit = DEFAULT_BODY_LIMIT, timeoutMs = DEFAULT_REQUEST_TIMEOUT_MS): Promise<unknown> {
  const type = (request.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase()
  if (type !== 'application/json') {
    throw new MetaBlogError('ERR_CONTENT_TYPE', 'Send the body as JSON with the header Content-Type: application/json.')
  }
  const tooLarge = () =>
    new MetaBlogError('ERR_TOO_LARGE', `The body is larger than the ${Math.round(limit / 1024)} KiB limit (the plugin's bodyLimit option).`)
  const declared = Number(request.headers['content-length'])
  if (Number.isFinite(declared) && declared > limit) {
    request.resume()
    throw tooLarge()
  }
  const body = await new Promise<Buffer>((resolve, reject) => {
    const chunks: Buffer[] = []
    let size = 0
    const finish = (error: unknown, result?: Buffer) => {
      clearTimeout(timer)
      request.off('data', onData).off('end', onEnd).off('error', finish).off('close', onClose)
      if (error) reject(error)
      else resolve(result!)
    }
    const onData = (chunk: Buffer) => {
      size += chunk.length
      if (size <= limit) return void chunks.push(chunk)
      // Read on and drop the rest, so the answer can be sent on a connection still in step.
      request.resume()
      finish(tooLarge())
    }
    const onEnd = () => finish(null, Buffer.concat(chunks))
    const onClose = () => finish(new MetaBlogError('ERR_BAD_REQUEST', 'The connection closed before the whole body arrived.'))
    const timer = setTimeout(() => finish(requestTimeoutError(timeoutMs)), timeoutMs)
    request.on('data', onData).on('end', onEnd).on('error', finish).on('close', onClose)
  })
  try {
    return JSON.parse(body.toString('utf8'))
  } catch (error) {
    throw new MetaBlogError('ERR_BAD_JSON', `The body is not valid JSON: ${(error as Error).message}`)
  }
}
