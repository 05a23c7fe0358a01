// A cheap token estimate: no tokenizer in the page, so count characters the way BPE tokenizers roughly do.
import type { ChatCompletionMessageParam, ChatCompletionTool } from 'openai/resources'

/** Characters of ordinary text per token, on average (English prose and code). */
const CHARACTERS_PER_TOKEN = 4
/** The role, separators and framing each message costs. */
const MESSAGE_OVERHEAD = 4
const WIDE = /[\u2E80-\u9FFF\uAC00-\uD7AF\uF900-\uFAFF\uFF00-\uFFEF]/g

/** About how many tokens `text` is: a CJK character is about one token, other text about four characters a token. */
export function estimateTokens(text: string): number {
  const wide = text.match(WIDE)?.length ?? 0
  return wide + Math.ceil((text.length - wide) / CHARACTERS_PER_TOKEN)
}

function contentText(message: ChatCompletionMessageParam): string {
  const { content } = message
  const text = typeof content === 'string' ? content : Array.isArray(content) ? content.map((part) => ('text' in part ? part.text : '')).join('') : ''
  const calls = 'tool_calls' in message && message.tool_calls ? JSON.stringify(message.tool_calls) : ''
  return text + calls
}

/** The estimated prompt size of a request: its messages and the tool definitions sent with it. */
export function estimateRequest(messages: readonly ChatCompletionMessageParam[], tools: readonly ChatCompletionTool[] = []): number {
  const body = messages.reduce((sum, message) => sum + MESSAGE_OVERHEAD + estimateTokens(contentText(message)), 0)
  return body + (tools.length ? estimateTokens(JSON.stringify(tools)) : 0)
}
