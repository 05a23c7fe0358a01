import type { ServerResponse } from 'node:http'
import { MetaBlogError } from '../../server/errors.js'
import { DEFAULT_REQUEST_TIMEOUT_MS, hasBody, readJsonBody, sendError } from '../../server/http.js'
import type { ApiRequest } from './api-handler.js'

export interface GateOptions {
  checkRequest: (request: ApiRequest) => void
  bodyLimit: number
  /** How long the body may take to arrive. Default 5 s. */
  timeoutMs?: number
}

/** Host, origin and token first, then content type, size and JSON: nothing else runs until all pass. */
export function gateMiddleware(options: GateOptions) {
  const timeoutMs = options.timeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS
  return async function metablogGateMiddleware(request: ApiRequest, response: ServerResponse, next: (error?: unknown) => void) {
    try {
      options.checkRequest(request)
      if (hasBody(request)) request.body = await readJsonBody(request, options.bodyLimit, timeoutMs)
    } catch (error) {
      if (hasBody(request)) response.setHeader('Connection', 'close')
      // The rest of a trickled body may never come: free the connection once the answer is out.
      if (error instanceof MetaBlogError && error.code === 'ERR_TIMEOUT') response.once('finish', () => request.socket.destroy())
      sendError(response, error)
      return
    }
    next()
  }
}
