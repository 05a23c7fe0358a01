import type OpenAI from 'openai'
import { streamChat } from '../api/stream-chat'
import { INTENTS, type RouteContext } from './intent-types'

const INSTRUCTIONS = `You route requests for a blogging assistant. Answer with one JSON object only:
{"intent": one of ${INTENTS.map((intent) => `"${intent}"`).join(', ')},
 "confidence": a number from 0 to 1,
 "params": {"topic"?, "style"?, "length"?: "short"|"medium"|"long", "path"?, "pageHint"?, "instruction"?, "query"?}}`

/** The router's fallback: asks the model what the author meant; the router validates the answer. Stop aborts it through `signal`. */
export async function classifyWithModel(client: OpenAI, text: string, context: RouteContext, signal?: AbortSignal): Promise<string> {
  const facts = [
    context.currentFile ? `The author is on the page ${context.currentFile}.` : '',
    context.selectedText ? `They selected: """${context.selectedText.slice(0, 500)}"""` : 'Nothing is selected.',
  ].join(' ')
  let answer = ''
  for await (const event of streamChat(client, {
    messages: [
      { role: 'system', content: INSTRUCTIONS },
      { role: 'user', content: `${facts}\nRequest: ${text}` },
    ],
    temperature: 0,
    max_tokens: 200,
  }, { signal })) {
    if (event.type === 'text') answer += event.text
  }
  const json = /\{[\s\S]*\}/.exec(answer)?.[0]
  return json ?? answer
}
