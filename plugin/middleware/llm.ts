import type { LlmGateway } from '../../server/llm/gateway.js'
import { sendError } from '../../server/http.js'
import { createRoute, type ApiMiddleware } from './api-handler.js'

/** GET /llm/status and POST /llm/v1/chat/completions, an OpenAI-compatible pass-through. */
export function llmMiddleware(gateway: LlmGateway): ApiMiddleware[] {
  const status = createRoute(/^\/llm\/status$/, {
    async GET() {
      return { body: await gateway.status() }
    },
  })
  const completions: ApiMiddleware = async function metablogLlmMiddleware(request, response, next) {
    if (!request.url?.startsWith('/llm/v1/chat/completions') || request.method !== 'POST') return next()
    try {
      await gateway.chatCompletions(request, request.body, response)
    } catch (error) {
      sendError(response, error, (message) => console.error(message))
    }
  }
  return [status, completions]
}
