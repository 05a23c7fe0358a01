import type OpenAI from 'openai'
import { streamChat } from '../api/stream-chat'
import type { CostTracker } from './cost-tracker'
import type { Logger } from './logger'
import type { ModelPort, ModelRequest } from './types'

/** The model for one task: streams through the gateway and records every call's usage and cost. */
export function createModelPort(options: {
  client: OpenAI
  model: string
  taskId: string
  signal: AbortSignal
  costs: CostTracker
  logger: Logger
}): ModelPort {
  const { client, model, taskId, signal, costs, logger } = options
  return {
    model,
    async complete(request: ModelRequest, handlers = {}) {
      let text = ''
      const started = Date.now()
      for await (const event of streamChat(
        client,
        { messages: request.messages, temperature: request.temperature, max_tokens: request.maxTokens },
        { signal },
      )) {
        if (event.type === 'text') {
          text += event.text
          handlers.onText?.(event.text, text)
        } else if (event.type === 'usage') {
          const record = costs.record(taskId, model, {
            promptTokens: event.usage.prompt_tokens,
            completionTokens: event.usage.completion_tokens,
          })
          logger.log('agent.llm.called', { ...record, ms: Date.now() - started })
        }
      }
      return text
    },
  }
}
