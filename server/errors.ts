import type { ErrorBody, ErrorCode } from '../plugin/protocol.js'

/** An error that carries a contract code; `httpStatus` is the one place codes map to HTTP. */
export class MetaBlogError extends Error {
  readonly code: ErrorCode
  readonly details: Omit<ErrorBody['error'], 'code' | 'message'>

  constructor(code: ErrorCode, message: string, details: MetaBlogError['details'] = {}) {
    super(message)
    this.name = 'MetaBlogError'
    this.code = code
    this.details = details
  }

  toBody(): ErrorBody {
    return { error: { code: this.code, message: this.message, ...this.details } }
  }
}

const STATUS: Record<ErrorCode, number> = {
  ERR_HOST: 403,
  ERR_ORIGIN: 403,
  ERR_TOKEN: 403,
  ERR_CONTENT_TYPE: 415,
  ERR_TOO_LARGE: 413,
  ERR_BAD_JSON: 400,
  ERR_BAD_REQUEST: 400,
  ERR_BAD_PATH: 400,
  ERR_NOT_FOUND: 404,
  ERR_METHOD: 405,
  ERR_PRECONDITION_REQUIRED: 428,
  ERR_STALE: 412,
  ERR_LOCKED: 423,
  ERR_LLM_UNCONFIGURED: 503,
  ERR_LLM_AUTH: 502,
  ERR_LLM_RATE_LIMIT: 429,
  ERR_LLM_UNREACHABLE: 502,
  ERR_LLM_BAD_REQUEST: 400,
  ERR_LLM_UPSTREAM: 502,
  ERR_LLM_TIMEOUT: 504,
  ERR_INTERNAL: 500,
  ERR_UNSAFE_CONTENT: 422,
  ERR_TIMEOUT: 408,
  ERR_MODEL_OUTPUT: 502,
  ERR_LLM_QUOTA: 402,
  ERR_LLM_MODEL: 404,
  ERR_LLM_CONTEXT: 400,
  ERR_LLM_NO_TOOLS: 400,
  ERR_LLM_MODEL_NOT_ALLOWED: 403,
}

export function httpStatus(code: ErrorCode): number {
  return STATUS[code]
}

export function isErrnoException(error: unknown): error is NodeJS.ErrnoException {
  return error instanceof Error && 'code' in error
}
