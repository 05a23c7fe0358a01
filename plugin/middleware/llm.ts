import type { LlmGateway } from '../../server/llm/gateway.js'
import { sendError } from '../../server/http.js'
import { createRoute, methodNotAllowed, type ApiMiddleware } from './api-handler.js'

const COMPLETIONS = /^\/llm\/v1\/chat\/completions$/

/** GET /llm/status, POST /llm/test, GET /llm/models and POST /llm/v1/chat/completions, an OpenAI-compatible pass-through. */
export function llmMiddleware(gateway: LlmGateway): ApiMiddleware[] {
  const status = createRoute(
    /^\/llm\/status$/,
    {
      async GET() {
        return { body: await gateway.status() }
      },
    },
    { redact: gateway.redactSecrets },
  )
  const test = createRoute(
    /^\/llm\/test$/,
    {
      async POST() {
        return { body: await gateway.testConnection() }
      },
    },
    { redact: gateway.redactSecrets },
  )
  const models = createRoute(
    /^\/llm\/models$/,
    {
      async GET() {
        return { body: await gateway.models() }
      },
    },
    { redact: gateway.redactSecrets },
  )
  // Not createRoute: the answer is streamed by the gateway rather than returned as one JSON body.
  const completions: ApiMiddleware = async function metablogLlmMiddleware(request, response, next) {
    const pathname = new URL(request.url ?? '/', 'http://metablog.invalid').pathname
    if (!COMPLETIONS.test(pathname)) return next()
    try {
      if (request.method !== 'POST') throw methodNotAllowed(response, request.method, ['POST'])
      await gateway.chatCompletions(request.body, response)
    } catch (error) {
      // An error from outside the relay may still quote the key or the base URL's credentials.
      sendError(response, error, (message) => console.error(message), gateway.redactSecrets)
    }
  }
  return [status, completions, test, models]
}
