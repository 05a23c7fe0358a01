// How many tokens each model can read at once, so a conversation knows when to compact.

/** Context windows of common models, in tokens; the first pattern that matches the model name wins. */
const KNOWN_WINDOWS: readonly [RegExp, number][] = [
  [/^gpt-4\.1/, 1_047_576],
  [/^gpt-4o|^gpt-4-turbo|^o[134]/, 128_000],
  [/^gpt-4-32k/, 32_768],
  [/^gpt-4\b/, 8_192],
  [/^gpt-3\.5/, 16_385],
  [/^gpt-5/, 400_000],
  [/^deepseek/, 64_000],
  [/^qwen-long/, 1_000_000],
  [/^qwen/, 131_072],
  [/^claude/, 200_000],
  [/^gemini/, 1_000_000],
  [/^moonshot|^kimi/, 128_000],
  [/^glm-4/, 128_000],
  [/^(llama3\.[123]|llama-3\.[123])/, 128_000],
  [/^llama3|^llama-3/, 8_192],
  [/^mistral|^mixtral/, 32_000],
]

/** What an unknown model is assumed to read: small enough for most local models. */
export const DEFAULT_CONTEXT_WINDOW = 8_192

/**
 * The most of a huge window the conversation uses unless the author sets one: each request resends
 * it all (cost), and a running turn's checkpoint carries it (the API's 2 MiB body limit).
 */
export const MAX_DEFAULT_WINDOW = 128_000

/** The share of the window a request may fill before older turns are compacted. */
export const COMPACT_AT = 0.8

/** The model's window: the author's option for it (exact name, then "*"), else the table (capped) or the default. */
export function contextWindow(model: string | undefined, overrides: Readonly<Record<string, number>> = {}): number {
  const name = (model ?? '').toLowerCase().replace(/^.*\//, '')
  if (model !== undefined && Object.hasOwn(overrides, model)) return overrides[model]!
  if (Object.hasOwn(overrides, '*')) return overrides['*']!
  return Math.min(KNOWN_WINDOWS.find(([pattern]) => pattern.test(name))?.[1] ?? DEFAULT_CONTEXT_WINDOW, MAX_DEFAULT_WINDOW)
}
