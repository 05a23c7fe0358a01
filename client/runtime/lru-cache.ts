// A small least-recently-used cache whose entries also expire, for intent parses and the like.

export interface LruCacheOptions {
  maxEntries: number
  /** How long an entry lives after it was set; reading it does not extend its life. */
  ttlMs: number
  now?: () => number
}

interface Entry<V> {
  value: V
  expiresAt: number
}

export class LruCache<K, V> {
  // A Map keeps insertion order: the first key is the least recently used one.
  private readonly entries = new Map<K, Entry<V>>()
  private readonly maxEntries: number
  private readonly ttlMs: number
  private readonly now: () => number

  constructor(options: LruCacheOptions) {
    if (!Number.isInteger(options.maxEntries) || options.maxEntries < 1) {
      throw new RangeError(`LruCache needs maxEntries ≥ 1, got ${options.maxEntries}.`)
    }
    this.maxEntries = options.maxEntries
    this.ttlMs = options.ttlMs
    // Read the clock lazily so fake timers installed after construction still apply.
    this.now = options.now ?? (() => Date.now())
  }

  get size(): number {
    return this.entries.size
  }

  get(key: K): V | undefined {
    const entry = this.entries.get(key)
    if (entry === undefined) return undefined
    this.entries.delete(key)
    if (entry.expiresAt <= this.now()) return undefined
    this.entries.set(key, entry)
    return entry.value
  }

  has(key: K): boolean {
    const entry = this.entries.get(key)
    if (entry === undefined) return false
    if (entry.expiresAt > this.now()) return true
    this.entries.delete(key)
    return false
  }

  set(key: K, value: V): void {
    this.entries.delete(key)
    this.entries.set(key, { value, expiresAt: this.now() + this.ttlMs })
    for (const oldest of this.entries.keys()) {
      if (this.entries.size <= this.maxEntries) break
      this.entries.delete(oldest)
    }
  }

  delete(key: K): boolean {
    return this.entries.delete(key)
  }

  clear(): void {
    this.entries.clear()
  }
}
