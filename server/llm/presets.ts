// What MetaBlog knows about each provider and its common models, so an author only names them.

export type ProviderId = 'openai' | 'deepseek' | 'qwen' | 'moonshot' | 'openrouter' | 'ollama' | 'lmstudio' | 'openai-compatible'

/** A model's limits and abilities; prices live in prices.ts, keyed by the same names. */
export interface ModelPreset {
  /** Tokens the model reads and writes in one request. */
  contextWindow: number
  /** Whether it calls tools reliably through the `tools` parameter. */
  tools: boolean
  /** Whether it thinks aloud (`reasoning_content` or `<think>` in the content). */
  reasoning: boolean
}

export interface ProviderPreset {
  id: ProviderId
  label: string
  baseURL: string
  /** The model used when METABLOG_MODEL is not set; null where only the author knows what is installed. */
  defaultModel: string | null
  /** Whether the server accepts `stream_options: {include_usage: true}` (a rejection is retried without it anyway). */
  streamOptions: boolean
  /** For models not in `models`. */
  fallback: ModelPreset
  models: Readonly<Record<string, ModelPreset>>
}

const chat = (contextWindow: number, tools = true): ModelPreset => ({ contextWindow, tools, reasoning: false })
const thinking = (contextWindow: number, tools = true): ModelPreset => ({ contextWindow, tools, reasoning: true })

// Windows as published in late 2025. Local servers load models with a small window unless told
// otherwise (Ollama's num_ctx / OLLAMA_CONTEXT_LENGTH, LM Studio's "context length"): that is what a request gets.
const LOCAL_WINDOW = 4096

export const PROVIDER_PRESETS: Readonly<Record<ProviderId, ProviderPreset>> = {
  'openai': {
    id: 'openai', label: 'OpenAI', baseURL: 'https://api.openai.com/v1', defaultModel: 'gpt-4o-mini', streamOptions: true,
    fallback: chat(128_000),
    models: {
      'gpt-5': thinking(400_000), 'gpt-5-mini': thinking(400_000), 'gpt-5-nano': thinking(400_000),
      'gpt-4.1': chat(1_047_576), 'gpt-4.1-mini': chat(1_047_576), 'gpt-4.1-nano': chat(1_047_576),
      'gpt-4o': chat(128_000), 'gpt-4o-mini': chat(128_000),
      'o3': thinking(200_000), 'o3-mini': thinking(200_000), 'o4-mini': thinking(200_000),
    },
  },
  'deepseek': {
    id: 'deepseek', label: 'DeepSeek', baseURL: 'https://api.deepseek.com/v1', defaultModel: 'deepseek-chat', streamOptions: true,
    fallback: chat(128_000),
    // deepseek-reasoner streams reasoning_content; its older versions refused the tools parameter.
    models: { 'deepseek-chat': chat(128_000), 'deepseek-reasoner': thinking(128_000, false) },
  },
  'qwen': {
    id: 'qwen', label: 'Qwen (Alibaba Cloud DashScope)', baseURL: 'https://dashscope-intl.aliyuncs.com/compatible-mode/v1', defaultModel: 'qwen-plus', streamOptions: true,
    fallback: chat(131_072),
    models: {
      'qwen-max': chat(32_768), 'qwen-plus': chat(131_072), 'qwen-turbo': chat(1_000_000), 'qwen-flash': chat(1_000_000),
      'qwen3-235b-a22b': thinking(131_072), 'qwq-plus': thinking(131_072, false),
    },
  },
  'moonshot': {
    id: 'moonshot', label: 'Moonshot (Kimi)', baseURL: 'https://api.moonshot.ai/v1', defaultModel: 'moonshot-v1-8k', streamOptions: true,
    fallback: chat(8_192),
    models: { 'moonshot-v1-8k': chat(8_192), 'moonshot-v1-32k': chat(32_768), 'moonshot-v1-128k': chat(131_072), 'kimi-k2-0905-preview': chat(262_144) },
  },
  'openrouter': {
    id: 'openrouter', label: 'OpenRouter', baseURL: 'https://openrouter.ai/api/v1', defaultModel: 'openai/gpt-4o-mini', streamOptions: true,
    fallback: chat(32_768),
    models: {
      'openai/gpt-4o-mini': chat(128_000), 'deepseek/deepseek-chat': chat(128_000), 'deepseek/deepseek-r1': thinking(163_840, false),
      'meta-llama/llama-3.1-8b-instruct': chat(131_072), 'meta-llama/llama-3.2-3b-instruct': chat(131_072, false),
      'qwen/qwen3-235b-a22b': thinking(131_072),
    },
  },
  'ollama': {
    id: 'ollama', label: 'Ollama (local)', baseURL: 'http://127.0.0.1:11434/v1', defaultModel: null, streamOptions: true,
    // A model not listed is tried with tools; Ollama's 400 "does not support tools" teaches the gateway otherwise.
    fallback: chat(LOCAL_WINDOW),
    models: {
      'llama3.1': chat(LOCAL_WINDOW), 'llama3.2': chat(LOCAL_WINDOW), 'qwen2.5': chat(LOCAL_WINDOW), 'mistral': chat(LOCAL_WINDOW),
      'qwen3': thinking(LOCAL_WINDOW), 'deepseek-r1': thinking(LOCAL_WINDOW, false),
      'gemma2': chat(LOCAL_WINDOW, false), 'phi3': chat(LOCAL_WINDOW, false), 'llama3': chat(LOCAL_WINDOW, false),
    },
  },
  'lmstudio': {
    id: 'lmstudio', label: 'LM Studio (local)', baseURL: 'http://127.0.0.1:1234/v1', defaultModel: null, streamOptions: true,
    fallback: chat(LOCAL_WINDOW),
    models: {},
  },
  'openai-compatible': {
    id: 'openai-compatible', label: 'OpenAI-compatible server', baseURL: '', defaultModel: null, streamOptions: true,
    fallback: chat(8_192),
    models: {},
  },
}

const HOSTS: { id: ProviderId; host: RegExp }[] = [
  { id: 'openai', host: /(^|\.)openai\.com$/ },
  { id: 'deepseek', host: /(^|\.)deepseek\.com$/ },
  { id: 'qwen', host: /(^|\.)dashscope(-intl)?\.aliyuncs\.com$/ },
  { id: 'moonshot', host: /(^|\.)moonshot\.(cn|ai)$/ },
  { id: 'openrouter', host: /(^|\.)openrouter\.ai$/ },
]

export function isProviderId(value: string): value is ProviderId {
  return Object.hasOwn(PROVIDER_PRESETS, value)
}

/** The provider a base URL belongs to: by host, then by the local servers' default ports. */
export function providerOfURL(baseURL: string): ProviderId {
  let url: URL
  try {
    url = new URL(baseURL)
  } catch {
    return 'openai-compatible'
  }
  const known = HOSTS.find((entry) => entry.host.test(url.hostname))
  if (known) return known.id
  return url.port === '11434' ? 'ollama' : url.port === '1234' ? 'lmstudio' : 'openai-compatible'
}

// Dated snapshots and Ollama tags share their family's limits; other variants are not guessed.
const SNAPSHOT_SUFFIX = /-(\d{4}-\d{2}-\d{2}|\d{4}|\d{6,8}|latest)$/

/** A model's preset: author overrides first, then the provider's table (exact, without `vendor/`, without `:tag` or a snapshot), then the provider's fallback. */
export function modelPreset(provider: ProviderId, model: string | null, overrides: Readonly<Record<string, Partial<ModelPreset>>> = {}): ModelPreset & { known: boolean } {
  const preset = PROVIDER_PRESETS[provider]
  const name = (model ?? '').trim().toLowerCase()
  const bare = name.slice(name.lastIndexOf('/') + 1)
  const candidates = [name, bare, bare.replace(/:.*$/, ''), bare.replace(/:.*$/, '').replace(SNAPSHOT_SUFFIX, '')]
  const own = candidates.find((candidate) => Object.hasOwn(overrides, candidate))
  const listed = candidates.find((candidate) => Object.hasOwn(preset.models, candidate))
  const base = listed ? preset.models[listed]! : preset.fallback
  return { ...base, ...(own ? overrides[own] : {}), known: Boolean(listed || own) }
}
