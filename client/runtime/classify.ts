import type OpenAI from 'openai'
import type { CompletionUsage } from 'openai/resources'
import { streamChat } from '../api/stream-chat'
import { INTENTS, type RouteContext } from './intent-types'
import { recordCall, type UsageMeter } from './model-port'
import type { Vocabulary } from './vocabulary'

/** Classification calls are counted in the session under this pseudo-task, apart from the task that follows. */
export const CLASSIFY_TASK_ID = 'classify'

const ALL_PARAMS = ['topic', 'style', 'length', 'path', 'pageHint', 'instruction', 'query'] as const

/** The classifier's instructions, from the registered skills' intents and params. */
export function classifierInstructions(vocabulary: Pick<Vocabulary, 'intents' | 'skills'>): string {
  const declared = new Set(vocabulary.skills.flatMap((skill) => skill.params ?? []))
  const params = ALL_PARAMS.filter((name) => declared.size === 0 || declared.has(name))
  const shape = params.map((name) => (name === 'length' ? '"length"?: "short"|"medium"|"long"' : `"${name}"?`)).join(', ')
  return `You route requests for a blogging assistant. Answer with one JSON object only:
{"intent": one of ${vocabulary.intents.map((intent) => `"${intent}"`).join(', ')},
 "confidence": a number from 0 to 1,
 "params": {${shape}}}`
}

/**
 * The router's fallback: asks the model what the author meant; the router validates the answer. Stop
 * aborts it through `signal`; `meter` counts the call's tokens and cost under CLASSIFY_TASK_ID.
 */
export async function classifyWithModel(
  client: OpenAI,
  text: string,
  context: RouteContext,
  signal?: AbortSignal,
  meter?: UsageMeter,
  vocabulary: Pick<Vocabulary, 'intents' | 'skills'> = { intents: INTENTS, skills: [] },
): Promise<string> {
  const facts = [
    context.currentFile ? `The author is on the page ${context.currentFile}.` : '',
    context.selectedText ? `They selected: """${context.selectedText.slice(0, 500)}"""` : 'Nothing is selected.',
  ].join(' ')
  let answer = ''
  let usage: CompletionUsage | null = null
  const started = Date.now()
  for await (const event of streamChat(client, {
    // The picked model answers the classifier too; 'unknown' lets the gateway fill in the configured one.
    ...(meter && meter.model !== 'unknown' ? { model: meter.model } : {}),
    messages: [
      { role: 'system', content: classifierInstructions(vocabulary) },
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
