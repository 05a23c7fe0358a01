import OpenAI from 'openai'
import { API_PREFIX, TOKEN_HEADER } from './connection'

/** Where the gateway is: the page's origin and token (an `ApiConnection` from `connectionFromPage()` fits). */
export interface LlmClientOptions {
  /** The page's origin, e.g. `location.origin`. */
  origin: string
  /** The page token from `<meta name="metablog-token">`. */
  token: string
  /** A fetch to use instead of the global one (tests record traffic with it). */
  fetch?: typeof fetch
}

/**
 * The official OpenAI client, pointed at the dev server's gateway. The real key stays in the
 * dev server; this one is a placeholder. Retries happen in the gateway, before the first byte,
 * so the client never repeats a request (and a bill) on its own.
 */
export function createLlmClient(options: LlmClientOptions): OpenAI {
  return new OpenAI({
    baseURL: new URL(`${API_PREFIX}/llm/v1`, options.origin).href,
    apiKey: 'metablog-gateway',
    defaultHeaders: { [TOKEN_HEADER]: options.token },
    maxRetries: 0,
    // Safe here: the browser only ever holds the placeholder above.
    dangerouslyAllowBrowser: true,
    fetch: options.fetch,
  })
}
