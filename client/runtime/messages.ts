// What the runtime says on its own (not a skill's words), in one place.
import type { ChatState } from './types'

let counter = 0

/** A chat message id, unique in this page: `prefix-<time>-<counter>`. */
export function messageId(prefix: string): string {
  return `${prefix}-${Date.now().toString(36)}-${(counter++).toString(36)}`
}

export const NO_MODEL =
  'No model is configured. Set OPENAI_API_KEY (and OPENAI_BASE_URL and METABLOG_MODEL for other providers) in a .env file beside your site, then restart `vitepress dev`.'

export const NO_MODEL_NAME =
  'A model provider is configured, but no model is named. Set METABLOG_MODEL (for example METABLOG_MODEL=gpt-4o-mini) in the .env file beside your site, then restart `vitepress dev`.'

export const BUSY = 'A task is still running. Stop it first, or wait for it to finish.'

export const STOPPED = 'Stopped. The task is saved: you can resume it later.'

/** A short assistant message that is not part of a skill's reply. */
export function pushNote(state: ChatState, text: string, taskId?: string): void {
  state.pushMessage({ id: messageId('note'), kind: 'assistant', taskId, text, streaming: false })
}
