// One error shape for the whole client: a contract code, a message that says what to do, and,
// for HTTP failures, the status and the server's details.
import type { ErrorBody, ErrorCode } from '../../plugin/protocol'

export class ClientError<Code extends string = string> extends Error {
  constructor(
    readonly code: Code,
    message: string,
    readonly status?: number,
    readonly details: Partial<ErrorBody['error']> = {},
  ) {
    super(message)
    this.name = 'ClientError'
  }
}

/** A contract error from the dev-server API, or a network failure (`ERR_NETWORK`) or a stopped request. */
export class ApiError extends ClientError<ErrorCode | 'ERR_NETWORK' | 'ERR_ABORTED'> {
  // Spelled out (not the class's own name), so a minified build keeps it.
  override name = 'ApiError'
}

/** Contract codes, plus one for when the dev server itself cannot be reached. */
export type LlmErrorCode = ErrorCode | 'ERR_NETWORK'

/** A model call that failed. */
export class LlmError extends ClientError<LlmErrorCode> {
  override name = 'LlmError'
}

/** A skill step that cannot go on: the runtime shows the code, and the message says what to do. */
export class SkillError extends ClientError {
  override name = 'SkillError'
}

/**
 * The contract code of an error (`ERR_STALE`, `ERR_NOT_FOUND`, …), if it has one. Only strings
 * count: a DOMException's `code` is a legacy number (a TimeoutError's is 23).
 */
export function errorCode(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null | undefined)?.code
  return typeof code === 'string' ? code : undefined
}
