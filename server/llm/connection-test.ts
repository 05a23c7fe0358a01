// "Test connection": can the dev server reach the model, is the key accepted, and how long does one token take.
import type OpenAI from 'openai'
import type { LlmConnectionTest } from '../../plugin/protocol.js'
import { hostOf, type LlmConfig } from './config.js'
import { toContractError, type FailureContext } from './errors.js'

const TEST_TIMEOUT_MS = 30_000

/** Lists the models (reachability and the key), then asks for one token (the model itself), timing the round trip. */
export async function testConnection(config: LlmConfig, client: OpenAI | null, secrets: readonly string[]): Promise<LlmConnectionTest> {
  if (!config.configured || !client) {
    return { ok: false, stage: 'config', model: null, host: null, latencyMs: null, models: [], error: { code: 'ERR_LLM_UNCONFIGURED', message: config.configured ? 'No model is configured.' : config.instructions } }
  }
  const host = hostOf(config.baseURL)
  const context: FailureContext = { host, baseURL: config.baseURL, model: config.model, secrets }
  let models: string[] = []
  try {
    const page = await client.models.list({ timeout: TEST_TIMEOUT_MS })
    models = page.data.map((model) => model.id).slice(0, 200)
  } catch (error) {
    const contract = toContractError(error, context)
    // A provider without /models is fine; a refused key or an unreachable host is the answer.
    if (contract.code === 'ERR_LLM_AUTH' || contract.code === 'ERR_LLM_UNREACHABLE' || contract.code === 'ERR_LLM_TIMEOUT') {
      return { ok: false, stage: contract.code === 'ERR_LLM_AUTH' ? 'auth' : 'reach', model: config.model, host, latencyMs: null, models, error: { code: contract.code, message: contract.message } }
    }
  }
  if (!config.model) return { ok: false, stage: 'model', model: null, host, latencyMs: null, models, error: { code: 'ERR_LLM_MODEL', message: 'No model is named: set METABLOG_MODEL.' } }
  const started = Date.now()
  try {
    await client.chat.completions.create({ model: config.model, messages: [{ role: 'user', content: 'Reply with OK.' }], max_tokens: 1 }, { timeout: TEST_TIMEOUT_MS })
    return { ok: true, stage: 'done', model: config.model, host, latencyMs: Date.now() - started, models }
  } catch (error) {
    const contract = toContractError(error, context)
    // Providers without /models (or that list without a key) refuse the key only here.
    const stage = contract.code === 'ERR_LLM_AUTH' ? 'auth' : contract.code === 'ERR_LLM_UNREACHABLE' ? 'reach' : 'model'
    return { ok: false, stage, model: config.model, host, latencyMs: null, models, error: { code: contract.code, message: contract.message } }
  }
}
