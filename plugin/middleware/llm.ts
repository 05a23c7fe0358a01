import type { LlmGateway } from '../../server/llm/gateway.js'
import { MetaBlogError } from '../../server/errors.js'
import { sendError } from '../../server/http.js'
import { createRoute, type ApiMiddleware } from './api-handler.js'

const COMPLETIONS = /^\/llm\/v1\/chat\/completions$/

/** GET /llm/status and POST /llm/v1/chat/completions, an OpenAI-compatible pass-through. */
export function llmMiddleware(gateway: LlmGateway): ApiMiddleware[] {
  const status = createRoute(/^\/llm\/status$/, {
    async GET() {
      return { body: await gateway.status() }
    },
  })
  // Not createRoute: the answer is streamed by the gateway rather than returned as one JSON body.
  const completions: ApiMiddleware = async function metablogLlmMiddleware(request, response, next) {
    const pathname = new URL(request.url ?? '/', 'http://metablog.invalid').pathname
    if (!COMPLETIONS.test(pathname)) return next()
    try {
      if (request.method !== 'POST') throw new MetaBlogError('ERR_METHOD', `${request.method} is not supported here; use POST.`)
      await gateway.chatCompletions(request.body, response)
    } catch (error) {
      sendError(response, error, (message) => console.error(message))
    }
  }
  return [status, completions]
}
