import type { IncomingMessage, ServerResponse } from 'node:http'
import { MetaBlogError } from '../../server/errors.js'
import { sendError, sendJson } from '../../server/http.js'

/** A request that passed the gate: its JSON body, if any, is parsed. */
export interface ApiRequest extends IncomingMessage {
  body?: unknown
  /** Its URL below the API prefix, parsed by the first route that looked at it. */
  parsedUrl?: { raw: string; url: URL }
}

/** The request's URL, parsed once: a request passes a dozen routes before the one that answers it. */
function urlOf(request: ApiRequest): URL {
  const raw = request.url ?? '/'
  // Keyed by the raw text: a middleware that rewrites request.url gets a fresh parse.
  if (request.parsedUrl?.raw !== raw) request.parsedUrl = { raw, url: new URL(raw, 'http://metablog.invalid') }
  return request.parsedUrl.url
}

export interface ApiReply {
  status?: number
  body: unknown
  headers?: Record<string, string>
}

export type NextFunction = (error?: unknown) => void
export type ApiMiddleware = (request: ApiRequest, response: ServerResponse, next: NextFunction) => void | Promise<void>

type Method = 'GET' | 'PUT' | 'POST' | 'DELETE'
export type RouteHandler = (request: ApiRequest, url: URL, params: string[]) => Promise<ApiReply>

/**
 * Builds a middleware for one route (the path below the API prefix): it answers the methods
 * it knows, 405 for the others, and passes any other path on.
 */
export function createRoute(
  pattern: RegExp,
  handlers: Partial<Record<Method, RouteHandler>>,
  options: { redact?: (text: string) => string } = {},
): ApiMiddleware {
  return async function metablogRoute(request, response, next) {
    const url = urlOf(request)
    const match = pattern.exec(url.pathname)
    if (!match) return next()
    const handler = Object.hasOwn(handlers, request.method ?? '') ? handlers[request.method as Method] : undefined
    try {
      if (!handler) throw methodNotAllowed(response, request.method, Object.keys(handlers))
      const reply = await handler(request, url, match.slice(1))
      sendJson(response, reply.status ?? 200, reply.body, reply.headers)
    } catch (error) {
      sendError(response, error, (message) => console.error(message), options.redact)
    }
  }
}

/** A 405 error, with the `Allow` header HTTP asks for set on the response. */
export function methodNotAllowed(response: ServerResponse, method: string | undefined, allowed: string[]): MetaBlogError {
  response.setHeader('Allow', allowed.join(', '))
  return new MetaBlogError('ERR_METHOD', `${method} is not supported here; use ${allowed.join(', ')}.`)
}

/** A required string field of a JSON body. */
export function stringField(body: unknown, name: string): string {
  const value = (body as Record<string, unknown> | null)?.[name]
  if (typeof value !== 'string') {
    throw new MetaBlogError('ERR_BAD_REQUEST', `The JSON body needs a string field "${name}".`)
  }
  return value
}

export function optionalStringField(body: unknown, name: string): string | undefined {
  const value = (body as Record<string, unknown> | null)?.[name]
  return value === undefined || value === null ? undefined : stringField(body, name)
}

/** A required query parameter. */
export function queryParam(url: URL, name: string): string {
  const value = url.searchParams.get(name)
  if (value === null) throw new MetaBlogError('ERR_BAD_REQUEST', `The query parameter "${name}" is required.`)
  return value
}
