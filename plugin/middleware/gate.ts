import type { ServerResponse } from 'node:http'
import { hasBody, readJsonBody, sendError } from '../../server/http.js'
import type { ApiRequest } from './api-handler.js'

export interface GateOptions {
  checkRequest: (request: ApiRequest) => void
  bodyLimit: number
}

/** Host, origin and token first, then content type, size and JSON: nothing else runs until all pass. */
export function gateMiddleware(options: GateOptions) {
  return async function metablogGateMiddleware(request: ApiRequest, response: ServerResponse, next: (error?: unknown) => void) {
    try {
      options.checkRequest(request)
      if (hasBody(request)) request.body = await readJsonBody(request, options.bodyLimit)
    } catch (error) {
      if (hasBody(request)) response.setHeader('Connection', 'close')
      sendError(response, error)
      return
    }
    next()
  }
}
