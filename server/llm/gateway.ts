import type { ServerResponse } from 'node:http'
import type OpenAI from 'openai'
import { APIError } from 'openai/error'
import type { LlmConnectionTest, LlmModelsResponse, LlmStatusResponse, ModelPrice } from '../../plugin/protocol.js'
import { testConnection } from './connection-test.js'
import { listModels } from './model-list.js'
import { createModelAllowList, type ModelAllowList } from './model-allowlist.js'
import { MetaBlogError } from '../errors.js'
import { sendError } from '../http.js'
import { configFromSettings, hostOf, readSettings, secretsOfURL, setupInstructions, type LlmConfig, type LlmSettings, type LlmTarget } from './config.js'
import { idleTimeoutError, redactSecrets, rejectsTools, toContractError, type FailureContext } from './errors.js'
import { Exchange } from './exchange.js'
import { createOllamaProbe, type OllamaOptions } from './ollama.js'
import { modelPreset, PROVIDER_PRESETS, type ModelPreset } from './presets.js'
import { mergePrices } from './prices.js'
import { endWithError, relay } from './relay.js'
import { DEFAULT_RETRY_POLICY, type RetryPolicy } from './retry.js'

export interface LlmOptions extends LlmSettings {
  /** Prices in US dollars per million tokens, merged over the built-in table. */
  prices?: Record<string, ModelPrice>
  /** Where to look for a local Ollama when nothing is configured; false never looks. */
  ollama?: false | OllamaOptions
  /** Retries of 429, 5xx and connection failures, only before the first byte reaches the page. */
  retry?: Partial<RetryPolicy>
  /** A stream that sends nothing for this long is stopped, in ms. Default 120 s. */
  idleTimeoutMs?: number
  /** Longest wait for the upstream's answer to begin (a whole non-streamed answer), in ms. Default 10 min. */
  requestTimeoutMs?: number
  /** Per-model context window, tool and reasoning support, over the provider presets (keys are model names). */
  models?: Record<string, Partial<ModelPreset>>
}

export interface LlmGatewayOptions {
  llm?: LlmOptions
  /** The folder whose .env files are read: the site's root. */
  envDir: string
  log: (message: string) => void
  /** The process environment; tests pass their own. */
  env?: NodeJS.ProcessEnv
  /** Vite's mode, which picks the .env.[mode] files (`vite --mode`); default 'development'. */
  mode?: string
}

export interface LlmGateway {
  status(): Promise<LlmStatusResponse>
  /** Reachability, the key and a one-token round trip with its latency. */
  testConnection(): Promise<LlmConnectionTest>
  /** The models the provider lists, or the configured one when it can't list. */
  models(): Promise<LlmModelsResponse>
  /** Proxies one chat-completions request (its parsed JSON body) and streams the answer back. */
  chatCompletions(body: unknown, response: ServerResponse): Promise<void>
  /** Aborts every upstream call in flight. */
  close(): void
  /** Text with the key, the base URL's credentials and key-shaped strings removed, for a page or a log. */
  redactSecrets(text: string): string
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

/** The page's body with the default model filled in, and usage requested for streams where the provider takes it. */
export function prepareRequest(body: unknown, defaultModel: string | null, streamOptions = true): Record<string, unknown> {
  if (!isRecord(body) || !Array.isArray(body.messages) || body.messages.length === 0) {
    throw new MetaBlogError('ERR_LLM_BAD_REQUEST', 'Send a chat-completions body with a non-empty "messages" array, as the OpenAI API expects.')
  }
  if (body.model !== undefined && body.model !== null && typeof body.model !== 'string') {
    throw new MetaBlogError('ERR_LLM_BAD_REQUEST', '"model" must be a string, or left out to use the configured model.')
  }
  const model = body.model || defaultModel
  if (!model) {
    throw new MetaBlogError('ERR_LLM_BAD_REQUEST', 'No model was given and none is configured: set METABLOG_MODEL in the .env beside your site, or pass "model".')
  }
  const params: Record<string, unknown> = { ...body, model }
  if (!streamOptions) delete params.stream_options
  else if (body.stream === true) params.stream_options = { ...(isRecord(body.stream_options) ? body.stream_options : {}), include_usage: true }
  return params
}

export function createLlmGateway(options: LlmGatewayOptions): LlmGateway {
  const llm = options.llm ?? {}
  const { envDir, log } = options
  const settings = readSettings(llm, envDir, options.env, options.mode)
  const fixed = configFromSettings(settings, envDir)
  const probeOllama = llm.ollama === false ? null : createOllamaProbe(llm.ollama ?? {}, envDir, settings.model)
  const prices = mergePrices(llm.prices, log)
  const policy: RetryPolicy = { ...DEFAULT_RETRY_POLICY, ...llm.retry }
  const idleTimeoutMs = llm.idleTimeoutMs ?? 120_000
  const requestTimeoutMs = llm.requestTimeoutMs ?? 600_000
  const secrets = [
    ...(settings.apiKey ? [settings.apiKey] : []),
    ...secretsOfURL(settings.baseURL),
    ...secretsOfURL(llm.ollama ? llm.ollama.baseURL : undefined),
  ]
  const modelOverrides = Object.fromEntries(Object.entries(llm.models ?? {}).map(([name, preset]) => [name.toLowerCase(), preset]))
  // Learned from a first rejected request: this server does not take stream_options.
  let streamOptionsRejected = false
  // Models that answered a request with tools by refusing them: the status says so from then on.
  const toolsRejected = new Set<string>()
  const active = new Set<Exchange>()
  const clients = new WeakMap<LlmTarget, OpenAI>()
  const allowLists = new WeakMap<LlmTarget, ModelAllowList>()
  let announced = ''

  async function resolveConfig(): Promise<LlmConfig> {
    const config = fixed ?? (probeOllama ? await probeOllama() : { configured: false as const, instructions: setupInstructions(envDir) })
    const line = config.configured
      ? `[metablog] model: ${config.model ?? '(none by default)'} at ${hostOf(config.baseURL)} (${config.provider})`
      : '[metablog] no model is configured; the AI co-author explains how to set one up.'
    if (line !== announced) log((announced = line))
    return config
  }

  /** The SDK's client for a target. The SDK takes a sixth of a second to load: it loads with the first call to a model, not with the dev server's API. */
  async function clientFor(target: LlmTarget): Promise<OpenAI> {
    let client = clients.get(target)
    if (!client) {
      const { default: OpenAIClient } = await import('openai')
      client = clients.get(target) ?? new OpenAIClient({
        // Local servers need no key; the SDK insists on one, so they get a placeholder.
        apiKey: target.apiKey ?? 'no-key',
        baseURL: target.baseURL,
        maxRetries: 0,
        timeout: requestTimeoutMs,
        // The SDK's own logging could print request details; the gateway reports failures itself.
        logLevel: 'off',
      })
      clients.set(target, client)
    }
    return client
  }

  function allowListFor(target: LlmTarget): ModelAllowList {
    let allowList = allowLists.get(target)
    if (!allowList) {
      allowList = createModelAllowList({
        known: () => [...(target.model ? [target.model] : []), ...Object.keys(modelOverrides), ...Object.keys(PROVIDER_PRESETS[target.provider].models)],
        list: async () => (await (await clientFor(target)).models.list({ timeout: 10_000 })).data.map((model) => model.id),
      })
      allowLists.set(target, allowList)
    }
    return allowList
  }

  function fail(error: unknown, exchange: Exchange, response: ServerResponse, context: FailureContext): void {
    // Nobody is left to tell when the page went away.
    if (exchange.stopped === 'page') {
      response.destroy()
      return
    }
    const contract =
      exchange.stopped === 'idle'
        ? idleTimeoutError(context, idleTimeoutMs)
        : exchange.stopped === 'server'
          ? new MetaBlogError('ERR_LLM_UPSTREAM', 'The dev server stopped while the model was answering. Start it again and retry.')
          : toContractError(error, context)
    log(`[metablog] model request failed: ${redactSecrets(contract.message, secrets)}`)
    if (response.headersSent) endWithError(response, contract)
    else sendError(response, contract)
  }

  return {
    async status() {
      const config = await resolveConfig()
      if (!config.configured) return { configured: false, provider: null, model: null, baseURLHost: null, prices, instructions: config.instructions, contextWindow: null, capabilities: null }
      const preset = modelPreset(config.provider, config.model, modelOverrides)
      const capabilities = { tools: preset.tools && !toolsRejected.has(config.model ?? ''), reasoning: preset.reasoning, streamOptions: PROVIDER_PRESETS[config.provider].streamOptions && !streamOptionsRejected, known: preset.known }
      return { configured: true, provider: config.provider, model: config.model, baseURLHost: hostOf(config.baseURL), prices, instructions: null, contextWindow: preset.contextWindow, capabilities }
    },

    async testConnection() {
      const config = await resolveConfig()
      return testConnection(config, config.configured ? await clientFor(config) : null, secrets)
    },

    async models() {
      const config = await resolveConfig()
      const listing = await listModels(config, config.configured ? await clientFor(config) : null, Object.keys(llm.models ?? {}))
      if (config.configured && listing.listed) allowListFor(config).remember(listing.models)
      return listing
    },

    async chatCompletions(body, response) {
      const config = await resolveConfig()
      if (!config.configured) throw new MetaBlogError('ERR_LLM_UNCONFIGURED', config.instructions)
      const params = prepareRequest(body, config.model, PROVIDER_PRESETS[config.provider].streamOptions && !streamOptionsRejected)
      await allowListFor(config).check(params.model as string)
      const context: FailureContext = { host: hostOf(config.baseURL), baseURL: config.baseURL, model: params.model as string, secrets }
      const client = await clientFor(config)
      const exchange = new Exchange(response, idleTimeoutMs)
      const settings = { client, policy, requestTimeoutMs, context, log }
      active.add(exchange)
      try {
        try {
          await relay(params, response, exchange, settings)
        } catch (error) {
          if (!params.stream_options || !rejectsStreamOptions(error) || response.headersSent || exchange.stopped) throw error
          // Some servers refuse the field outright: ask again without it, and never send it again.
          streamOptionsRejected = true
          log(`[metablog] ${context.host} does not accept stream_options; usage will be counted locally.`)
          delete params.stream_options
          await relay(params, response, exchange, settings)
        }
      } catch (error) {
        if (error instanceof APIError && error.status === 400 && rejectsTools(error.message)) toolsRejected.add(context.model ?? '')
        fail(error, exchange, response, context)
      } finally {
        exchange.dispose()
        active.delete(exchange)
      }
    },

    close() {
      for (const exchange of active) exchange.stop('server')
    },

    redactSecrets: (text) => redactSecrets(text, secrets),
  }
}

/** A 400 that names stream_options: the server does not know the field. */
function rejectsStreamOptions(error: unknown): boolean {
  return error instanceof APIError && error.status === 400 && /stream_options/i.test(error.message)
}
