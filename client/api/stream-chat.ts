import type OpenAI from 'openai'
import type { ChatCompletionChunk, ChatCompletionCreateParamsStreaming, CompletionUsage } from 'openai/resources'
import { LlmError, toLlmError } from './llm-error'
import { parseToolArguments } from './tool-call-json'

export type FinishReason = NonNullable<ChatCompletionChunk.Choice['finish_reason']>

export type ChatEvent =
  | { type: 'text'; text: string }
  | { type: 'reasoning'; text: string }
  | {
      type: 'tool-call'
      id: string
      name: string
      /** The parsed arguments, or null when they were not valid JSON (see `error`). */
      arguments: Record<string, unknown> | null
      rawArguments: string
      error?: string
    }
  | { type: 'usage'; usage: CompletionUsage }
  | { type: 'finish'; reason: FinishReason }

/** A chat-completions request; the gateway fills in the configured model when there is none. */
export type StreamChatParams = Omit<ChatCompletionCreateParamsStreaming, 'model' | 'stream' | 'stream_options'> & { model?: string }

/** Reasoning models send their thinking under a non-standard name. */
type Delta = ChatCompletionChunk.Choice['delta'] & { reasoning_content?: string | null; reasoning?: string | null }

interface PendingCall {
  id: string
  name: string
  arguments: string
}

/** Tool calls arrive in pieces keyed by index; some servers send whole calls without one. */
function collect(calls: PendingCall[], pieces: NonNullable<Delta['tool_calls']>): void {
  for (const piece of pieces) {
    const index = piece.index ?? (piece.id || calls.length === 0 ? calls.length : calls.length - 1)
    const call = (calls[index] ??= { id: '', name: '', arguments: '' })
    if (piece.id) call.id = piece.id
    if (piece.function?.name) call.name += piece.function.name
    if (piece.function?.arguments) call.arguments += piece.function.arguments
  }
}

function toEvent(call: PendingCall, position: number): ChatEvent {
  const parsed = parseToolArguments(call.arguments)
  const base = { type: 'tool-call' as const, id: call.id || `call_${position}`, name: call.name, rawArguments: call.arguments }
  return parsed.ok ? { ...base, arguments: parsed.value } : { ...base, arguments: null, error: parsed.error }
}

/**
 * Streams one chat completion as events: text and reasoning deltas as they arrive, then the
 * buffered tool calls, the usage, and `finish` last. A stream that ends without a
 * finish_reason, or with an error event, throws an LlmError: it never ends like a success.
 * Aborting the signal stops the request (and the model) and throws the signal's reason.
 */
export async function* streamChat(
  client: OpenAI,
  params: StreamChatParams,
  options: {
    signal?: AbortSignal
    /** Called as a tool call's arguments arrive (they are only yielded whole, at the end). */
    onToolCallProgress?: (name: string, characters: number) => void
  } = {},
): AsyncGenerator<ChatEvent, void, undefined> {
  const { signal } = options
  signal?.throwIfAborted()
  const calls: PendingCall[] = []
  let finish: FinishReason | null = null
  let usage: CompletionUsage | null = null
  try {
    const request = { ...params, stream: true, stream_options: { include_usage: true } } as ChatCompletionCreateParamsStreaming
    const stream = await client.chat.completions.create(request, { signal })
    for await (const chunk of stream) {
      if (chunk.usage) usage = chunk.usage
      // Only the first choice: the runtime never asks for n > 1.
      const choice = chunk.choices.find((candidate) => candidate.index === 0)
      if (!choice) continue
      const delta = choice.delta as Delta
      const reasoning = delta.reasoning_content ?? delta.reasoning
      if (reasoning) yield { type: 'reasoning', text: reasoning }
      if (delta.content) yield { type: 'text', text: delta.content }
      if (delta.tool_calls) {
        collect(calls, delta.tool_calls)
        const last = calls.at(-1)
        if (last) options.onToolCallProgress?.(last.name, last.arguments.length)
      }
      if (choice.finish_reason) finish = choice.finish_reason
    }
  } catch (error) {
    throw toLlmError(error, signal)
  }
  // The SDK ends an aborted stream quietly; the caller must not mistake that for an answer.
  if (signal?.aborted) throw signal.reason
  if (!finish) {
    throw new LlmError('ERR_LLM_UPSTREAM', "The model's answer stopped before it finished (no finish_reason), so it is incomplete. Try again.")
  }
  for (const [position, call] of calls.entries()) if (call) yield toEvent(call, position)
  if (usage) yield { type: 'usage', usage }
  yield { type: 'finish', reason: finish }
}
