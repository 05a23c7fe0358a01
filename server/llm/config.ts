import fs from 'node:fs'
import path from 'node:path'
import { parseEnv } from 'node:util'
import { PROVIDER_PRESETS, isProviderId, providerOfURL, type ProviderId } from './presets.js'

export const OPENAI_BASE_URL = 'https://api.openai.com/v1'
export const OLLAMA_BASE_URL = 'http://127.0.0.1:11434/v1'

/** The settings, by the OpenAI SDK's own names where they exist. */
export interface LlmSettings {
  apiKey?: string
  baseURL?: string
  model?: string
  /** A provider preset by name (`METABLOG_PROVIDER=deepseek`): its base URL and default model. */
  provider?: string
}

export type Provider = ProviderId

/** A model the gateway can call. `apiKey` is null for local servers that need none. */
export interface LlmTarget {
  provider: Provider
  baseURL: string
  apiKey: string | null
  model: string | null
}

export type LlmConfig = ({ configured: true } & LlmTarget) | { configured: false; instructions: string }

/**
 * Reads the .env files Vite would read in this mode, later files winning. A missing or
 * unreadable file is simply absent: the dev server must start without any .env.
 */
export function readEnvFiles(envDir: string, mode = 'development'): Record<string, string> {
  const values: Record<string, string> = {}
  for (const name of ['.env', '.env.local', `.env.${mode}`, `.env.${mode}.local`]) {
    let text: string
    try {
      text = fs.readFileSync(path.join(envDir, name), 'utf8')
    } catch {
      continue
    }
    for (const [key, value] of Object.entries(parseEnv(text))) if (value !== undefined) values[key] = value
  }
  return values
}

function firstSet(...values: (string | undefined)[]): string | undefined {
  return values.map((value) => value?.trim()).find((value) => value)
}

/**
 * Options win, then variables already in the process environment, then .env files beside the site,
 * read for Vite's mode (`--mode`, default 'development' for the dev server).
 */
export function readSettings(options: LlmSettings, envDir: string, env: NodeJS.ProcessEnv = process.env, mode?: string): LlmSettings {
  const files = readEnvFiles(envDir, mode)
  return {
    apiKey: firstSet(options.apiKey, env.OPENAI_API_KEY, files.OPENAI_API_KEY),
    baseURL: firstSet(options.baseURL, env.OPENAI_BASE_URL, files.OPENAI_BASE_URL)?.replace(/\/+$/, ''),
    model: firstSet(options.model, env.METABLOG_MODEL, files.METABLOG_MODEL),
    provider: firstSet(options.provider, env.METABLOG_PROVIDER, files.METABLOG_PROVIDER)?.toLowerCase(),
  }
}

/** The host alone: a base URL's user info and query may hold a key. */
export function hostOf(baseURL: string): string {
  try {
    return new URL(baseURL).host
  } catch {
    return '(not a URL)'
  }
}

/** The parts of a base URL that may carry credentials: user name, password and query values. */
export function secretsOfURL(baseURL: string | undefined): string[] {
  if (!baseURL) return []
  let url: URL
  try {
    url = new URL(baseURL)
  } catch {
    // Unreadable: the whole string may be a credential pasted in the wrong place.
    return [baseURL]
  }
  const decoded = (text: string) => {
    try {
      return decodeURIComponent(text)
    } catch {
      return text
    }
  }
  const parts = [url.username, url.password, decoded(url.username), decoded(url.password)]
  for (const value of url.searchParams.values()) parts.push(value, encodeURIComponent(value))
  if (url.search) parts.push(url.search.slice(1))
  return [...new Set(parts.filter((part) => part.length >= 4))]
}

export function isLoopback(baseURL: string): boolean {
  try {
    const hostname = new URL(baseURL).hostname
    return hostname === 'localhost' || hostname === '[::1]' || hostname.startsWith('127.')
  } catch {
    return false
  }
}

export function providerOf(baseURL: string): Provider {
  return providerOfURL(baseURL)
}

export function defaultModelOf(provider: Provider): string | null {
  return PROVIDER_PRESETS[provider].defaultModel
}

/** What the author reads when no model is configured, in the 503 and in GET /llm/status. */
export function setupInstructions(envDir: string, problem = 'No model is configured.'): string {
  return [
    `${problem} To connect one:`,
    `1. Create ${path.join(envDir, '.env')} (never commit it) with OPENAI_API_KEY=your-key.`,
    '2. For DeepSeek, Qwen, Moonshot, OpenRouter, Ollama or LM Studio, also set METABLOG_PROVIDER (deepseek, qwen, moonshot, openrouter, ollama, lmstudio), or OPENAI_BASE_URL for another OpenAI-compatible server; METABLOG_MODEL picks the model (e.g. deepseek-chat).',
    '3. Restart the dev server.',
    'Or run a local model with Ollama (`ollama serve`, then `ollama pull llama3.1`): it is used automatically when nothing else is configured.',
  ].join('\n')
}

function validURL(baseURL: string): boolean {
  try {
    const url = new URL(baseURL)
    return url.protocol === 'http:' || url.protocol === 'https:'
  } catch {
    return false
  }
}

/**
 * The configuration from settings alone, or null when nothing at all is set (the caller may
 * then look for a local Ollama). A key is required except for servers on this machine.
 */
export function configFromSettings(settings: LlmSettings, envDir: string): LlmConfig | null {
  const { apiKey, baseURL, model } = settings
  if (!apiKey && !baseURL && !settings.provider) return null
  if (settings.provider && !isProviderId(settings.provider)) {
    const names = Object.keys(PROVIDER_PRESETS).filter((name) => name !== 'openai-compatible').join(', ')
    return { configured: false, instructions: setupInstructions(envDir, `METABLOG_PROVIDER is not one MetaBlog knows (use one of ${names}, or set OPENAI_BASE_URL instead).`) }
  }
  const preset = settings.provider && isProviderId(settings.provider) ? PROVIDER_PRESETS[settings.provider] : null
  const url = baseURL ?? (preset?.baseURL || OPENAI_BASE_URL)
  if (!validURL(url)) {
    // Not echoed: a malformed value may be a key pasted into the wrong variable.
    return { configured: false, instructions: setupInstructions(envDir, 'OPENAI_BASE_URL is not an http(s) URL (expected something like https://api.deepseek.com/v1).') }
  }
  if (!apiKey && !isLoopback(url)) {
    return { configured: false, instructions: setupInstructions(envDir, `OPENAI_BASE_URL points at ${hostOf(url)} but OPENAI_API_KEY is not set.`) }
  }
  // A named provider wins over the URL's guess: a proxy in front of DeepSeek is still DeepSeek.
  const provider = preset && preset.id !== 'openai-compatible' ? preset.id : providerOf(url)
  return { configured: true, provider, baseURL: url, apiKey: apiKey ?? null, model: model ?? defaultModelOf(provider) }
}
