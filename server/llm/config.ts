import fs from 'node:fs'
import path from 'node:path'
import { parseEnv } from 'node:util'

export const OPENAI_BASE_URL = 'https://api.openai.com/v1'
export const OLLAMA_BASE_URL = 'http://127.0.0.1:11434/v1'

/** The three settings, by the OpenAI SDK's own names where they exist. */
export interface LlmSettings {
  apiKey?: string
  baseURL?: string
  model?: string
}

export type Provider = 'openai' | 'deepseek' | 'qwen' | 'moonshot' | 'ollama' | 'openai-compatible'

/** A model the gateway can call. `apiKey` is null for local servers that need none. */
export interface LlmTarget {
  provider: Provider
  baseURL: string
  apiKey: string | null
  model: string | null
}

export type LlmConfig = ({ configured: true } & LlmTarget) | { configured: false; instructions: string }

const KNOWN_PROVIDERS: { provider: Provider; host: RegExp; model: string }[] = [
  { provider: 'openai', host: /(^|\.)openai\.com$/, model: 'gpt-4o-mini' },
  { provider: 'deepseek', host: /(^|\.)deepseek\.com$/, model: 'deepseek-chat' },
  { provider: 'qwen', host: /(^|\.)dashscope(-intl)?\.aliyuncs\.com$/, model: 'qwen-plus' },
  { provider: 'moonshot', host: /(^|\.)moonshot\.(cn|ai)$/, model: 'moonshot-v1-8k' },
]

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
  let url: URL
  try {
    url = new URL(baseURL)
  } catch {
    return 'openai-compatible'
  }
  const known = KNOWN_PROVIDERS.find((entry) => entry.host.test(url.hostname))
  if (known) return known.provider
  return url.port === '11434' ? 'ollama' : 'openai-compatible'
}

export function defaultModelOf(provider: Provider): string | null {
  return KNOWN_PROVIDERS.find((entry) => entry.provider === provider)?.model ?? null
}

/** What the author reads when no model is configured, in the 503 and in GET /llm/status. */
export function setupInstructions(envDir: string, problem = 'No model is configured.'): string {
  return [
    `${problem} To connect one:`,
    `1. Create ${path.join(envDir, '.env')} (never commit it) with OPENAI_API_KEY=your-key.`,
    '2. For DeepSeek, Qwen, Moonshot or another OpenAI-compatible provider, also set OPENAI_BASE_URL (e.g. https://api.deepseek.com/v1) and METABLOG_MODEL (e.g. deepseek-chat).',
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
  if (!apiKey && !baseURL) return null
  const url = baseURL ?? OPENAI_BASE_URL
  if (!validURL(url)) {
    // Not echoed: a malformed value may be a key pasted into the wrong variable.
    return { configured: false, instructions: setupInstructions(envDir, 'OPENAI_BASE_URL is not an http(s) URL (expected something like https://api.deepseek.com/v1).') }
  }
  if (!apiKey && !isLoopback(url)) {
    return { configured: false, instructions: setupInstructions(envDir, `OPENAI_BASE_URL points at ${hostOf(url)} but OPENAI_API_KEY is not set.`) }
  }
  const provider = providerOf(url)
  return { configured: true, provider, baseURL: url, apiKey: apiKey ?? null, model: model ?? defaultModelOf(provider) }
}
