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

/** Reads a JSON body: checks the content type, enforces the size limit while streaming, then parses. */
export async function readJsonBody(request: IncomingMessage, limit = DEFAULT_BODY_LIMIT): Promise<unknown> {
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
  const chunks: Buffer[] = []
  let size = 0
  for await (const chunk of request as AsyncIterable<Buffer>) {
    size += chunk.length
    if (size > limit) {
      request.resume()
      throw tooLarge()
    }
    chunks.push(chunk)
  }
  try {
    return JSON.parse(Buffer.concat(chunks).toString('utf8'))
  } catch (error) {
    throw new MetaBlogError('ERR_BAD_JSON', `The body is not valid JSON: ${(error as Error).message}`)
  }
}
