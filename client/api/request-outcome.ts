// Watches the gateway's chat requests so the panel's dot tells how the last real request went.
import { errorCode } from './errors'

/** How the last chat request through the gateway ended. */
export interface RequestOutcome {
  ok: boolean
  /** The contract code of a failure, e.g. ERR_LLM_AUTH. */
  code?: string
  message?: string
  at: number
}

const CHAT_PATH = /\/llm\/v1\/chat\/completions$/

function urlOf(input: RequestInfo | URL): string {
  return typeof input === 'string' ? input : input instanceof URL ? input.href : input.url
}

/** A fetch that reports each chat request's answer: a success status, or the error code the gateway sent. */
export function observeChatRequests(base: typeof fetch, report: (outcome: RequestOutcome) => void): typeof fetch {
  return async (input, init) => {
    if (!CHAT_PATH.test(new URL(urlOf(input), 'http://page.invalid').pathname)) return base(input, init)
    let response: Response
    try {
      response = await base(input, init)
    } catch (error) {
      // A request the page stopped is not a failure of the model.
      if ((error as Error).name !== 'AbortError') report({ ok: false, code: 'ERR_LLM_UNREACHABLE', message: 'The dev server could not be reached.', at: Date.now() })
      throw error
    }
    if (response.ok) report({ ok: true, at: Date.now() })
    else {
      const body = (await response.clone().json().catch(() => null)) as { error?: { code?: unknown; message?: unknown } } | null
      const message = typeof body?.error?.message === 'string' ? body.error.message : `HTTP ${response.status}`
      report({ ok: false, code: errorCode(body?.error) ?? `HTTP_${response.status}`, message, at: Date.now() })
    }
    return response
  }
}
