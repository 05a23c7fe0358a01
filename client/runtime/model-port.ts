import type OpenAI from 'openai'
import type { CompletionUsage } from 'openai/resources'
import { streamChat } from '../api/stream-chat'
import type { CostTracker, TokenUsage } from './cost-tracker'
import type { Logger } from './logger'
import { createThinkFilter, estimatePromptTokens, estimateTokens, splitReasoning } from './model-output'
import type { ModelPort, ModelRequest, ModelToolCall, ModelTurn, TurnHandlers } from './types'

/** Where model calls are counted: the tracker and log they go to, and the model they are priced as. */
export interface UsageMeter {
  costs: CostTracker
  logger: Logger
  model: string
}

/** Records one finished call; without usage from the provider it still counts, with unknown tokens and cost. */
export function recordCall(meter: UsageMeter, taskId: string, usage: CompletionUsage | null, started: number, extra: Record<string, unknown> = {}, estimate?: TokenUsage): void {
  const tokens = usage ? { promptTokens: usage.prompt_tokens, completionTokens: usage.completion_tokens } : (estimate ?? null)
  const record = meter.costs.record(taskId, meter.model, tokens)
  meter.logger.log('agent.llm.called', { ...record, ms: Date.now() - started, ...extra })
}

/** The model for one task: streams through the gateway and records every call's usage and cost. */
export function createModelPort(options: {
  client: OpenAI
  model: string
  taskId: string
  signal: AbortSignal
  costs: CostTracker
  logger: Logger
}): ModelPort {
  const { client, model, taskId, signal } = options
  async function turn(request: ModelRequest, handlers: TurnHandlers = {}): Promise<ModelTurn> {
    let text = ''
    let reasoning = ''
    // <think> blocks in the content are reasoning, like `reasoning_content`: never part of the text.
    const thinking = createThinkFilter()
    const take = (part: { text: string; reasoning: string }) => {
      if (part.reasoning) {
        reasoning += part.reasoning
        handlers.onReasoning?.(part.reasoning, reasoning)
      }
      if (part.text) {
        text += part.text
        handlers.onText?.(part.text, text)
      }
    }
    let usage: CompletionUsage | null = null
    let finishReason: ModelTurn['finishReason'] = 'stop'
    const toolCalls: ModelToolCall[] = []
    const started = Date.now()
    const params = { model, messages: request.messages, temperature: request.temperature, max_tokens: request.maxTokens, ...(request.tools?.length ? { tools: request.tools } : {}) }
    for await (const event of streamChat(client, params, { signal, onToolCallProgress: handlers.onToolCallProgress })) {
      if (event.type === 'text') take(thinking.push(event.text))
      else if (event.type === 'reasoning') take({ text: '', reasoning: event.text })
      else if (event.type === 'usage') usage = event.usage
      else if (event.type === 'finish') finishReason = event.reason
      else if (event.type === 'tool-call') {
        const { type: _type, ...call } = event
        toolCalls.push(call)
      }
    }
    take(thinking.end())
    // A lone </think> (the opening tag was in the chat template) still ends the reasoning.
    const split = splitReasoning(text)
    if (split.reasoning) {
      reasoning += split.reasoning
      handlers.onReasoning?.(split.reasoning, reasoning)
    }
    const written = text + reasoning + toolCalls.map((call) => call.name + call.rawArguments).join('')
    // No usage from the provider: counted here, and marked as an estimate (the whole request, so only then).
    const estimate = usage ? undefined : { promptTokens: estimatePromptTokens(request.messages), completionTokens: estimateTokens(written), estimated: true }
    recordCall(options, taskId, usage, started, reasoning ? { reasoningCharacters: reasoning.length } : {}, estimate)
    return { text: split.text, toolCalls, finishReason, usage, reasoning }
  }
  return {
    model,
    turn,
    async complete(request, handlers = {}) {
      return (await turn(request, handlers)).text
    },
  }
}
