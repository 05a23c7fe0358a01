// The custom-prompts route (GET /prompts, HMR event `metablog:prompts-updated`); types from plugin/protocol.ts.
import { API_PREFIX, TOKEN_HEADER, type ApiConnection } from './connection'
import { ApiError } from './errors'

import type { PromptDefinition, PromptsResponse } from '../../plugin/protocol'

export type { PromptsResponse } from '../../plugin/protocol'
/** A prompt file as GET /prompts describes it. */
export type CustomPrompt = PromptDefinition

/** The HMR event the dev server sends when a prompt file is added, changed or removed. */
export const PROMPTS_UPDATED_EVENT = 'metablog:prompts-updated'

// --- calls -----------------------------------------------------------------------------------

export async function fetchPrompts(connection: ApiConnection, signal?: AbortSignal): Promise<PromptsResponse> {
  let response: Response
  try {
    response = await fetch(`${connection.origin}${API_PREFIX}/prompts`, { headers: { [TOKEN_HEADER]: connection.token }, signal })
  } catch (error) {
    if ((error as Error).name === 'AbortError') throw new ApiError('ERR_ABORTED', 'The request was stopped.', 0)
    throw new ApiError('ERR_NETWORK', 'The dev server did not answer. Is `vitepress dev` still running?', 0)
  }
  const payload = (await response.json().catch(() => null)) as (PromptsResponse & { error?: { code?: string; message?: string } }) | null
  if (!response.ok || !payload) {
    throw new ApiError((payload?.error?.code ?? 'ERR_INTERNAL') as ApiError['code'], payload?.error?.message ?? `The dev server answered ${response.status}.`, response.status)
  }
  return { prompts: Array.isArray(payload.prompts) ? payload.prompts : [], problems: Array.isArray(payload.problems) ? payload.problems : [] }
}
