export interface RetryPolicy {
  /** Retries after the first attempt. Default 2. */
  maxRetries: number
  /** Backoff before the first retry, doubled each time, in ms. Default 500. */
  baseDelayMs: number
  /** Largest backoff, in ms. Default 8 s. */
  maxDelayMs: number
  /** A Retry-After longer than this is not waited for: the error goes to the page at once. Default 20 s. */
  maxRetryAfterMs: number
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = { maxRetries: 2, baseDelayMs: 500, maxDelayMs: 8_000, maxRetryAfterMs: 20_000 }

/** What the caller decided about one failed attempt. */
export interface FailureVerdict {
  retryable: boolean
  /** The upstream's own Retry-After, in ms, when it gave one. */
  retryAfterMs?: number
}

/** Exponential backoff with jitter (75–100 % of the step), so clients that failed together do not retry together. */
export function backoffDelay(retry: number, policy: RetryPolicy, random = Math.random): number {
  const step = Math.min(policy.baseDelayMs * 2 ** retry, policy.maxDelayMs)
  return Math.round(step * (1 - random() * 0.25))
}

/** Retry-After-Ms, then Retry-After in seconds or as an HTTP date; undefined when absent or unreadable. */
export function retryAfterOf(headers: Headers | undefined, now = Date.now()): number | undefined {
  const milliseconds = Number.parseFloat(headers?.get('retry-after-ms') ?? '')
  if (Number.isFinite(milliseconds) && milliseconds >= 0) return milliseconds
  const header = headers?.get('retry-after')
  if (!header) return undefined
  const seconds = Number(header)
  if (Number.isFinite(seconds) && seconds >= 0) return seconds * 1000
  const date = Date.parse(header)
  return Number.isNaN(date) ? undefined : Math.max(0, date - now)
}

/** Resolves after `ms`, or rejects with the signal's reason the moment it aborts. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason)
    const onAbort = () => {
      clearTimeout(timer)
      reject(signal!.reason)
    }
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort)
      resolve()
    }, ms)
    signal?.addEventListener('abort', onAbort, { once: true })
  })
}

export interface RetryHooks {
  judge: (error: unknown) => FailureVerdict
  signal?: AbortSignal
  onRetry?: (info: { error: unknown; retry: number; delayMs: number }) => void
  random?: () => number
}

/**
 * Runs `attempt` until it succeeds, the failure is not retryable, the retries run out, the
 * upstream asks for a longer wait than the policy allows, or the signal aborts (at once, even
 * mid-backoff). The last failure is rethrown as it was.
 */
export async function withRetries<T>(attempt: (retry: number) => Promise<T>, policy: RetryPolicy, hooks: RetryHooks): Promise<T> {
  for (let retry = 0; ; retry++) {
    try {
      return await attempt(retry)
    } catch (error) {
      if (hooks.signal?.aborted) throw error
      const verdict = hooks.judge(error)
      if (!verdict.retryable || retry >= policy.maxRetries) throw error
      if (verdict.retryAfterMs !== undefined && verdict.retryAfterMs > policy.maxRetryAfterMs) throw error
      const delayMs = verdict.retryAfterMs ?? backoffDelay(retry, policy, hooks.random)
      hooks.onRetry?.({ error, retry: retry + 1, delayMs })
      await sleep(delayMs, hooks.signal)
    }
  }
}
