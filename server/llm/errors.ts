// The SDK's error classes alone (the same classes the client throws): the client itself loads with the first request.
import { APIConnectionError, APIConnectionTimeoutError, APIError } from 'openai/error'
import { MetaBlogError } from '../errors.js'
import { isLoopback } from './config.js'
import { redactorFor } from './redact.js'
import { retryAfterOf, type FailureVerdict } from './retry.js'

/** What an error message may name: the upstream's host and model, never its key. */
export interface FailureContext {
  host: string
  baseURL: string
  model: string | null
  /** Strings that must never leave the process (the API key). */
  secrets: readonly string[]
}

/** The upstream connection broke while a response body was being read. */
export class StreamCutError extends Error {
  /** Part of the body had arrived: the answer was produced (and billed), so it is not asked for again. */
  readonly partial: boolean

  constructor(cause: unknown, partial = false) {
    super('the connection broke mid-answer', { cause })
    this.name = 'StreamCutError'
    this.partial = partial
  }
}

/**
 * Removes secrets (in every form SecretRedactor knows: spaced out, %-encoded, base64 …), bearer
 * tokens and anything shaped like an API key from text bound for a page or a log.
 */
export function redactSecrets(text: string, secrets: readonly string[]): string {
  return redactorFor(secrets)
    .redact(text)
    .replace(/(bearer\s+)[A-Za-z0-9._~+/=-]+/gi, '$1[redacted]')
    .replace(/(basic\s+)[A-Za-z0-9+/=_-]{8,}/gi, '$1[redacted]')
    .replace(/\bsk-[A-Za-z0-9_-]{6,}/g, 'sk-[redacted]')
}

/** The provider's own words about a failure: one short line, redacted. */
function upstreamWords(error: APIError, secrets: readonly string[]): string {
  const body = error.error as { message?: unknown } | undefined
  const raw = typeof body?.message === 'string' ? body.message : error.message.replace(/^\d{3} /, '')
  const line = redactSecrets(raw, secrets).replace(/\s+/g, ' ').trim()
  return line.length > 240 ? `${line.slice(0, 240)}…` : line
}

/** The errno-style code deep in a fetch failure's cause chain, e.g. ECONNREFUSED. */
function causeCode(error: unknown): string | undefined {
  let current: unknown = error
  for (let depth = 0; depth < 5 && current; depth++) {
    const code = (current as { code?: unknown }).code
    if (typeof code === 'string' && /^[A-Z_]+$/.test(code)) return code
    current = (current as { cause?: unknown }).cause
  }
  return undefined
}

/** Which failures are worth another attempt before the first byte reaches the page. */
export function judgeFailure(error: unknown): FailureVerdict {
  if (error instanceof APIConnectionTimeoutError) return { retryable: false }
  if (error instanceof StreamCutError) return { retryable: !error.partial }
  if (error instanceof APIConnectionError) return { retryable: true }
  if (error instanceof APIError && error.status !== undefined) {
    // Retrying an empty account only repeats the bill-less failure.
    if (error.status === 429 && error.code === 'insufficient_quota') return { retryable: false }
    if (error.status === 429 || error.status >= 500) return { retryable: true, retryAfterMs: retryAfterOf(error.headers) }
  }
  return { retryable: false }
}

export function idleTimeoutError(context: FailureContext, idleMs: number): MetaBlogError {
  return new MetaBlogError(
    'ERR_LLM_TIMEOUT',
    `The model at ${context.host} sent nothing for ${idleMs / 1000} s, so the request was stopped. Try again; a local model may still be loading (the limit is the llm.idleTimeoutMs option).`,
  )
}

export function incompleteStreamError(context: FailureContext): MetaBlogError {
  return new MetaBlogError(
    'ERR_LLM_UPSTREAM',
    `The model at ${context.host} ended its answer without finishing it (no [DONE]); the answer is incomplete. Try again.`,
  )
}

/** A 400 that says the model takes no tools (Ollama: "… does not support tools"; vLLM: "tool choice requires --enable-auto-tool-choice"). */
export function rejectsTools(words: string): boolean {
  return /does not support (tools|function)|tools? (are|is) not supported|function calling is not (supported|enabled)|enable-auto-tool-choice/i.test(words)
}

/** Any upstream failure as a contract error that says what to do. */
export function toContractError(error: unknown, context: FailureContext): MetaBlogError {
  if (error instanceof MetaBlogError) return error
  const { host } = context
  if (error instanceof APIConnectionTimeoutError) {
    return new MetaBlogError('ERR_LLM_TIMEOUT', `The model at ${host} did not answer in time. Try again, or raise the llm.requestTimeoutMs option.`)
  }
  if (error instanceof APIConnectionError) {
    const code = causeCode(error)
    const local = isLoopback(context.baseURL) ? ' and that the local server is running (for Ollama: `ollama serve`)' : ' and your network'
    return new MetaBlogError('ERR_LLM_UNREACHABLE', `Could not reach the model at ${host}${code ? ` (${code})` : ''}. Check OPENAI_BASE_URL${local}.`)
  }
  if (error instanceof StreamCutError) {
    const code = causeCode(error.cause)
    return new MetaBlogError('ERR_LLM_UPSTREAM', `The connection to the model at ${host} broke mid-answer${code ? ` (${code})` : ''}; the answer is incomplete. Try again.`)
  }
  if (error instanceof APIError && error.status !== undefined) {
    const status = error.status
    const words = upstreamWords(error, context.secrets)
    const said = words ? `${status}: ${words}` : `${status}`
    if (status === 401 || status === 403) {
      return new MetaBlogError(
        'ERR_LLM_AUTH',
        `The model provider at ${host} refused the API key (${said}). Check OPENAI_API_KEY in the .env beside your site (or the llm.apiKey option), then restart the dev server.`,
      )
    }
    if (status === 402 || error.code === 'insufficient_quota' || /insufficient (balance|quota)|arrears|out of credits/i.test(words)) {
      return new MetaBlogError('ERR_LLM_QUOTA', `The account at ${host} has no balance or quota left (${said}). Add credit in the provider's console, or use another key (OPENAI_API_KEY).`)
    }
    if (status === 429) {
      const wait = retryAfterOf(error.headers)
      const asks = wait !== undefined ? `; it asks to wait ${Math.ceil(wait / 1000)} s` : ''
      return new MetaBlogError(
        'ERR_LLM_RATE_LIMIT',
        `The model provider at ${host} is rate-limiting requests (${said}${asks}). Wait a moment and try again; if it keeps happening, check your plan's limits.`,
      )
    }
    if (error.code === 'context_length_exceeded' || /context length|context window|too many tokens|maximum (context|input) length|prompt is too long/i.test(words)) {
      return new MetaBlogError(
        'ERR_LLM_CONTEXT',
        `The request is longer than the context window of ${JSON.stringify(context.model)} at ${host} (${said}). Compact or clear the conversation, shorten the page or the selection, or pick a model with a larger window.`,
      )
    }
    if (status === 400 && rejectsTools(words)) {
      return new MetaBlogError(
        'ERR_LLM_NO_TOOLS',
        `The model ${JSON.stringify(context.model)} at ${host} cannot call tools (${said}). The agent works with it through a plain-text action protocol instead, which is slower and less reliable; the recipes (/write, /summarize, /research, /edit with a selection) need no tools. For the agent, pick a model with tool support in METABLOG_MODEL.`,
      )
    }
    if (status === 404 && (error.code === 'model_not_found' || /model/i.test(words))) {
      const local = isLoopback(context.baseURL) ? ` For a local server, install it first (Ollama: \`ollama pull ${context.model ?? 'MODEL'}\`).` : ''
      return new MetaBlogError(
        'ERR_LLM_MODEL',
        `The model provider at ${host} does not serve the model ${JSON.stringify(context.model)} (${said}). Pick another model: set METABLOG_MODEL in the .env beside your site and restart the dev server.${local}`,
      )
    }
    if (status === 404) {
      return new MetaBlogError(
        'ERR_LLM_BAD_REQUEST',
        `The model provider at ${host} does not know this model or route (${said}). Check METABLOG_MODEL (now ${JSON.stringify(context.model)}) and OPENAI_BASE_URL (it usually ends in /v1).`,
      )
    }
    if (status >= 400 && status < 500) {
      return new MetaBlogError('ERR_LLM_BAD_REQUEST', `The model provider at ${host} rejected the request (${said}). Check the model name and the request's parameters.`)
    }
    return new MetaBlogError('ERR_LLM_UPSTREAM', `The model provider at ${host} failed (${said}). The problem is on their side: try again in a moment.`)
  }
  const message = redactSecrets(error instanceof Error ? error.message : String(error), context.secrets)
  return new MetaBlogError('ERR_LLM_UPSTREAM', `The request to the model at ${host} failed: ${message}. Try again.`)
}
