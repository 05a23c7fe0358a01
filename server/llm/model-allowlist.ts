// A page holds the token, but the key and its bill are the author's: requests name only models the author offers.
import { MetaBlogError } from '../errors.js'

/** How long the provider's list is trusted before a request for an unknown model asks again. */
const LISTED_FOR_MS = 10 * 60_000
/** After a failed listing, how long before another try (a provider without /models is not asked per request). */
const FAILED_FOR_MS = 60_000

export interface ModelAllowList {
  /** Throws ERR_LLM_MODEL_NOT_ALLOWED unless the model is configured, in the options or presets, or listed by the provider. */
  check(model: string): Promise<void>
  /** The provider's list, as GET /llm/models just fetched it. */
  remember(listed: readonly string[]): void
}

export interface ModelAllowListOptions {
  /** Models allowed without asking the provider: the configured one, the llm.models keys, the provider preset's table. */
  known: () => readonly string[]
  /** The provider's GET /models, or null when it cannot list. */
  list: () => Promise<readonly string[] | null>
  now?: () => number
}

const key = (model: string) => model.toLowerCase()

export function createModelAllowList(options: ModelAllowListOptions): ModelAllowList {
  const now = options.now ?? Date.now
  let listed = new Set<string>()
  let freshUntil = 0
  let listing: Promise<void> | null = null

  const allowed = (model: string) => listed.has(key(model)) || options.known().some((known) => key(known) === key(model))

  function remember(models: readonly string[]): void {
    listed = new Set(models.map(key))
    freshUntil = now() + LISTED_FOR_MS
  }

  // Concurrent requests for unknown models share one listing.
  function refresh(): Promise<void> {
    listing ??= options
      .list()
      .then((models) => {
        if (models && models.length > 0) remember(models)
        else freshUntil = now() + FAILED_FOR_MS
      })
      .catch(() => {
        freshUntil = now() + FAILED_FOR_MS
      })
      .finally(() => {
        listing = null
      })
    return listing
  }

  return {
    remember,
    async check(model) {
      if (allowed(model)) return
      if (now() >= freshUntil) await refresh()
      if (allowed(model)) return
      const shown = model.length > 80 ? `${model.slice(0, 80)}…` : model
      throw new MetaBlogError(
        'ERR_LLM_MODEL_NOT_ALLOWED',
        `The model ${JSON.stringify(shown)} is not one this blog offers: only the configured model (METABLOG_MODEL), the models in the llm.models option and its provider's presets, and the models the provider lists can be used. Pick one in the panel's model picker, or add it to llm.models in withMetaBlog's options.`,
      )
    },
  }
}
