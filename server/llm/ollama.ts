import { OLLAMA_BASE_URL, setupInstructions, type LlmConfig } from './config.js'

export interface OllamaOptions {
  /** Where to look. Default http://127.0.0.1:11434/v1. */
  baseURL?: string
  /** How long to wait for an answer, in ms. Default 300. */
  probeTimeoutMs?: number
  /** How long a failed probe is remembered before trying again, in ms. Default 30 s. */
  retryAfterMs?: number
}

/** The models a local OpenAI-compatible server lists, or null when it does not answer in time. */
export async function listLocalModels(baseURL: string, timeoutMs: number): Promise<string[] | null> {
  try {
    const response = await fetch(`${baseURL}/models`, { signal: AbortSignal.timeout(timeoutMs) })
    if (!response.ok) {
      await response.body?.cancel()
      return null
    }
    const body = (await response.json()) as { data?: { id?: unknown }[] }
    return (body.data ?? []).map((model) => model.id).filter((id): id is string => typeof id === 'string')
  } catch {
    return null
  }
}

/**
 * Uses a local Ollama when nothing else is configured. A success is kept for the life of the
 * dev server; a failure is retried after a while, so starting Ollama later needs no restart.
 */
export function createOllamaProbe(options: OllamaOptions, envDir: string, model: string | undefined, now = Date.now) {
  const baseURL = (options.baseURL ?? OLLAMA_BASE_URL).replace(/\/+$/, '')
  const timeoutMs = options.probeTimeoutMs ?? 300
  const retryAfterMs = options.retryAfterMs ?? 30_000
  let found: LlmConfig | null = null
  let failed: { config: LlmConfig; at: number } | null = null
  let pending: Promise<LlmConfig> | null = null

  async function probe(): Promise<LlmConfig> {
    const models = await listLocalModels(baseURL, timeoutMs)
    if (models === null) return { configured: false, instructions: setupInstructions(envDir) }
    const chosen = model ?? models[0]
    if (!chosen) {
      return {
        configured: false,
        instructions: setupInstructions(envDir, `Ollama answers at ${new URL(baseURL).host} but has no models yet: run \`ollama pull llama3.1\`.`),
      }
    }
    return { configured: true, provider: 'ollama', baseURL, apiKey: null, model: chosen }
  }

  return function resolveOllama(): Promise<LlmConfig> {
    if (found) return Promise.resolve(found)
    if (failed && now() - failed.at < retryAfterMs) return Promise.resolve(failed.config)
    pending ??= probe().then((config) => {
      pending = null
      if (config.configured) found = config
      else failed = { config, at: now() }
      return config
    })
    return pending
  }
}
