import type { ServerResponse } from 'node:http'
import { MetaBlogError } from '../../server/errors.js'
import { sendError } from '../../server/http.js'
import type { ApiRequest } from './api-handler.js'

/** The last API middleware: an unknown route gets a contract error, not the blog's HTML fallback. */
export function notFoundMiddleware() {
  return function metablogNotFoundMiddleware(request: ApiRequest, response: ServerResponse) {
    sendError(response, new MetaBlogError('ERR_NOT_FOUND', `There is no MetaBlog API route ${request.method} ${request.url}.`))
  }
}
