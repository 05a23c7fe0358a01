import type { ModelPrice } from '../../plugin/protocol'

// Dated or "-latest" snapshots cost what their family costs; other variants are not guessed.
const SNAPSHOT_SUFFIX = /-(\d{4}-\d{2}-\d{2}|\d{4}|\d{6,8}|latest)$/

/**
 * The price of a model from a table keyed by lowercase name: the exact name, then without a
 * provider prefix, then without a snapshot suffix.
 */
export function priceFor(model: string, prices: Readonly<Record<string, ModelPrice>>): ModelPrice | null {
  const name = model.trim().toLowerCase()
  const bare = name.slice(name.lastIndexOf('/') + 1)
  for (const candidate of [name, bare, bare.replace(SNAPSHOT_SUFFIX, '')]) {
    if (Object.hasOwn(prices, candidate)) return prices[candidate]!
  }
  return null
}
