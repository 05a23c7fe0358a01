import type OpenAI from 'openai'
import type { CompletionUsage } from 'openai/resources'
import { streamChat } from '../api/stream-chat'
import { INTENTS, type RouteContext } from './intent-types'
import { recordCall, type UsageMeter } from './model-port'

/** Classification calls are counted in the session under this pseudo-task, apart from the task that follows. */
export const CLASSIFY_TASK_ID = 'classify'

const INSTRUCTIONS = `You route requests for a blogging assistant. Answer with one JSON object only:
{"intent": one of ${INTENTS.map((intent) => `"${intent}"`).join(', ')},
 "confidence": a number from 0 to 1,
 "params": {"topic"?, "style"?, "length"?: "short"|"medium"|"long", "path"?, "pageHint"?, "instruction"?, "query"?}}`

/**
 * The router's fallback: asks the model what the author meant; the router validates the answer. Stop
 * aborts it through `signal`; `meter` counts the call's tokens and cost under CLASSIFY_TASK_ID.
 */
export async function classifyWithModel(client: OpenAI, text: string, context: RouteContext, signal?: AbortSignal, meter?: UsageMeter): Promise<string> {
  const facts = [
    context.currentFile ? `The author is on the page ${context.currentFile}.` : '',
    context.selectedText ? `They selected: """${context.selectedText.slice(0, 500)}"""` : 'Nothing is selected.',
  ].join(' ')
  let answer = ''
  let usage: CompletionUsage | null = null
  const started = Date.now()
  for await (const event of streamChat(client, {
    messages: [
      { role: 'system', content: INSTRUCTIONS },
      { role: 'user', content: `${facts}\nRequest: ${text}` },
    ],
    temperature: 0,
    max_tokens: 200,
  }, { signal })) {
    if (event.type === 'text') answer += event.text
    else if (event.type === 'usage') usage = event.usage
  }
  if (meter) recordCall(meter, CLASSIFY_TASK_ID, usage, started)
  const json = /\{[\s\S]*\}/.exec(answer)?.[0]
  return json ?? answer
}
