// A provider saying the request is longer than the model's context window, in any of the ways providers say it.
import { errorCode } from '../../api/errors'

const SAYS_TOO_LONG = /context[_ ]length|context window|maximum context|context_length_exceeded|too many tokens|prompt is too long|input is too long|reduce the length of the messages/i

export function isContextLengthError(error: unknown): boolean {
  if (!(error instanceof Error)) return false
  const code = errorCode(error)
  const upstream = (error as { code?: unknown }).code
  // The gateway names it ERR_LLM_CONTEXT; a provider reached some other way says it in its own words.
  if (code === 'ERR_LLM_CONTEXT' || upstream === 'context_length_exceeded') return true
  return (code === undefined || code === 'ERR_LLM_BAD_REQUEST') && SAYS_TOO_LONG.test(error.message)
}
