// Providers that stream without usage still cost money: count roughly, and say it is an estimate.
import type { ChatCompletionMessageParam } from 'openai/resources'

/** About four characters a token for Latin text (OpenAI's rule of thumb), one a token for CJK. */
export function estimateTokens(text: string): number {
  const wide = (text.match(/[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/gu) ?? []).length
  return Math.ceil((text.length - wide) / 4) + wide
}

/** The prompt's tokens, with a few for each message's framing. */
export function estimatePromptTokens(messages: readonly ChatCompletionMessageParam[]): number {
  return messages.reduce((sum, message) => sum + 4 + estimateTokens(typeof message.content === 'string' ? message.content : JSON.stringify(message.content ?? '')), 0)
}
