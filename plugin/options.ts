import { DEFAULT_BODY_LIMIT } from '../server/http.js'
import { DEFAULT_LOCK_TTL_MS } from '../server/locks.js'
import type { LlmOptions } from '../server/llm/gateway.js'
import type { BacklinkLabels, BacklinksSetting } from './protocol.js'

export const DEFAULT_PROMPTS_DIR = '.vitepress/metablog/prompts'

export interface MetaBlogOptions {
  /** Largest accepted API request body, in bytes. Default 2 MiB. */
  bodyLimit?: number
  /** How long a task's page lock lasts unless renewed, in ms. Default 5 minutes. */
  lockTtlMs?: number
  /** How long checkpoints of unfinished tasks are kept, in ms. Default 24 hours. */
  checkpointMaxAgeMs?: number
  /**
   * Generate the sidebar from the source folders. Default true. Without a `themeConfig.sidebar` of
   * your own: one section per top-level folder (root pages get none). With yours: it is kept, and a
   * page it does not list is added to your group that already holds pages of its folder.
   */
  sidebar?: boolean
  /**
   * "Linked from" under each page. Default on, in the site's `lang` (English and Chinese built in).
   * `false` turns it off; `labels` (by language) replace the words; `outline: true` lists it in the outline.
   */
  backlinks?: boolean | { labels?: Record<string, Partial<BacklinkLabels>>; outline?: boolean }
  /**
   * The model: `apiKey`, `baseURL` and `model` override OPENAI_API_KEY, OPENAI_BASE_URL and
   * METABLOG_MODEL from the environment or .env; also prices, the Ollama probe, retries and timeouts.
   */
  llm?: LlmOptions
  /**
   * The tool-calling agent: `maxSteps` model turns per request at most (default 10);
   * `contextWindows` overrides the built-in table of context windows, model name (or "*") → tokens.
   */
  agent?: { maxSteps?: number; contextWindows?: Record<string, number> }
  /** The folder of custom prompt files (slash commands), relative to the site root. Default `.vitepress/metablog/prompts`. */
  promptsDir?: string
}

// The checkpoint store applies its own default age: its module loads with the dev API, not with the config.
export type ResolvedOptions = Required<Omit<MetaBlogOptions, 'llm' | 'agent' | 'backlinks' | 'checkpointMaxAgeMs'>> &
  Pick<MetaBlogOptions, 'llm' | 'checkpointMaxAgeMs'> & { agent: { maxSteps: number; contextWindows: Record<string, number> }; backlinks: BacklinksSetting }

/** The agent's default step limit; the client has the same default. */
export const DEFAULT_AGENT_MAX_STEPS = 10

/** The name the agent's step limit reaches the page under (a Vite `define`). */
export const AGENT_MAX_STEPS_DEFINE = '__METABLOG_AGENT_MAX_STEPS__'

/** The name the backlinks option reaches the page under (a Vite `define`). */
export const BACKLINKS_DEFINE = '__METABLOG_BACKLINKS__'

function backlinks(value: MetaBlogOptions['backlinks']): BacklinksSetting {
  if (value === undefined || value === true) return { enabled: true, outline: false, labels: {} }
  if (value === false) return { enabled: false, outline: false, labels: {} }
  if (typeof value !== 'object' || value === null) throw new Error(`metablog: backlinks must be true, false or { labels, outline }, not ${String(value)}.`)
  return { enabled: true, outline: value.outline === true, labels: value.labels ?? {} }
}

/** The name the context-window overrides reach the page under (a Vite `define`). */
export const AGENT_CONTEXT_WINDOWS_DEFINE = '__METABLOG_AGENT_CONTEXT_WINDOWS__'

function contextWindows(value: Record<string, number> | undefined): Record<string, number> {
  for (const [model, tokens] of Object.entries(value ?? {})) {
    if (!Number.isInteger(tokens) || tokens < 1024) throw new Error(`metablog: agent.contextWindows[${JSON.stringify(model)}] must be a whole number of tokens, at least 1024, not ${tokens}.`)
  }
  return { ...value }
}

function maxSteps(value: number | undefined): number {
  if (value === undefined) return DEFAULT_AGENT_MAX_STEPS
  if (!Number.isInteger(value) || value < 1 || value > 100) throw new Error(`metablog: agent.maxSteps must be a whole number from 1 to 100, not ${value}.`)
  return value
}

export function resolveOptions(options: MetaBlogOptions = {}): ResolvedOptions {
  return {
    bodyLimit: options.bodyLimit ?? DEFAULT_BODY_LIMIT,
    lockTtlMs: options.lockTtlMs ?? DEFAULT_LOCK_TTL_MS,
    checkpointMaxAgeMs: options.checkpointMaxAgeMs,
    sidebar: options.sidebar ?? true,
    llm: options.llm,
    agent: { maxSteps: maxSteps(options.agent?.maxSteps), contextWindows: contextWindows(options.agent?.contextWindows) },
    promptsDir: options.promptsDir ?? DEFAULT_PROMPTS_DIR,
    backlinks: backlinks(options.backlinks),
  }
}
