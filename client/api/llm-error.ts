import { APIConnectionError, APIError, APIUserAbortError } from 'openai'
import type { ErrorCode } from '../../plugin/protocol'
import { LlmError } from './errors'

export { LlmError, type LlmErrorCode } from './errors'

function isContractCode(code: unknown): code is ErrorCode {
  return typeof code === 'string' && code.startsWith('ERR_')
}

/** The error a model call throws, or the abort reason when the caller stopped it. */
export function toLlmError(error: unknown, signal?: AbortSignal): unknown {
  if (signal?.aborted) return signal.reason
  if (error instanceof LlmError) return error
  if (error instanceof APIUserAbortError) return new DOMException('The model call was aborted.', 'AbortError')
  // A stream cut by a dying server surfaces as a bare TypeError ("network error", "terminated").
  if (error instanceof APIConnectionError || error instanceof TypeError) {
    return new LlmError('ERR_NETWORK', 'The dev server did not answer. Is `vitepress dev` still running? Restart it and reload the page.')
  }
  if (error instanceof APIError) {
    const body = error.error as { code?: unknown; message?: unknown } | undefined
    const message = typeof body?.message === 'string' ? body.message : error.message
    const code = body?.code
    if (isContractCode(code)) return new LlmError(code, message, error.status)
    return new LlmError(error.status === 429 ? 'ERR_LLM_RATE_LIMIT' : 'ERR_LLM_UPSTREAM', message, error.status)
  }
  return error
}
