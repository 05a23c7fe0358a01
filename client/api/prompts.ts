// The custom-prompts route. The types below are a local copy of the contract the server branch is
// adding to plugin/protocol.ts (GET /prompts, HMR event `metablog:prompts-updated`): swap them after that merge.
import { API_PREFIX, TOKEN_HEADER, type ApiConnection } from './connection'
import { ApiError } from './errors'

// --- local contract copy ----------------------------------------------------------------------

export interface CustomPrompt {
  /** The slash command, without the "/". */
  command: string
  description: string
  mode?: 'ask' | 'plan' | 'auto-edit'
  /** The tools the model may call (an allow-list of tool names); all of the mode's when absent. */
  tools?: string[]
  /** The body, with {{input}}, {{selection}} and {{page}} placeholders. */
  template: string
  /** The prompt file, relative to the site. */
  file: string
}

export interface PromptsResponse {
  prompts: CustomPrompt[]
  problems: { file: string; message: string }[]
}

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
