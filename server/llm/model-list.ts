// The model picker's choices: the configured model, the author's `llm.models`, and the models the provider lists.
import type OpenAI from 'openai'
import type { LlmModelsResponse } from '../../plugin/protocol.js'
import type { LlmConfig } from './config.js'

const LIST_TIMEOUT_MS = 10_000
const MAX_MODELS = 200

/** Asks the provider's GET /models; a provider that can't list (or fails) still offers the configured models (`offered`: the llm.models option's names). */
export async function listModels(config: LlmConfig, client: OpenAI | null, offered: readonly string[] = []): Promise<LlmModelsResponse> {
  if (!config.configured || !client) return { models: [], current: null, listed: false }
  const current = config.model
  let listed: string[] = []
  try {
    const page = await client.models.list({ timeout: LIST_TIMEOUT_MS })
    listed = page.data.map((model) => model.id).filter((id) => typeof id === 'string' && id.length > 0)
  } catch {
    // Many local servers and some gateways have no /models: the configured model is the choice.
    listed = []
  }
  const models = [...new Set([...(current ? [current] : []), ...offered, ...listed.sort()])].slice(0, MAX_MODELS)
  return { models, current, listed: listed.length > 0 }
}
