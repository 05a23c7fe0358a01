// A structured logger with a ring buffer for the debug view. It never records secrets or whole pages.
import { createListenerSet } from './listener-set'

export const LOG_EVENTS = [
  'agent.input.received',
  'agent.intent.parsed',
  'agent.state.changed',
  'agent.skill.started',
  'agent.llm.called',
  'agent.file.saved',
  'agent.tool.called',
  'agent.task.completed',
  'agent.task.cancelled',
  'agent.error',
  'agent.conversation.compacted',
] as const

export type LogEvent = (typeof LOG_EVENTS)[number]

export const LOG_LEVELS = ['debug', 'info', 'warn', 'error'] as const
export type LogLevel = (typeof LOG_LEVELS)[number]

export interface LogEntry {
  time: number
  event: LogEvent
  level: LogLevel
  [field: string]: unknown
}

export type LogSink = (entry: LogEntry) => void

export interface LoggerOptions {
  /**
   * Where entries go besides the buffer; null for nowhere. Default in dev: the console, warnings and
   * errors only unless the author asked for every line (see DEBUG_SWITCH); else nowhere.
   */
  sink?: LogSink | null
  /** Entries below this level are dropped entirely. Default 'debug'. */
  level?: LogLevel
  /** How many recent entries the buffer keeps. Default 500. */
  capacity?: number
  now?: () => number
  /** Whether this is a dev build; defaults to Vite's `import.meta.env.DEV`. */
  dev?: boolean
}

export interface Logger {
  log(event: LogEvent, fields?: Record<string, unknown>, level?: LogLevel): void
  /** The buffered entries, oldest first. */
  entries(): LogEntry[]
  clear(): void
  subscribe(listener: (entry: LogEntry) => void): () => void
}

export const DEFAULT_LOG_CAPACITY = 500

const DEFAULT_LEVELS: Partial<Record<LogEvent, LogLevel>> = {
  'agent.state.changed': 'debug',
  'agent.llm.called': 'debug',
  'agent.error': 'error',
}

// `promptTokens` is a count and stays; `token`, `apiKey`, `authToken` and friends do not.
const SECRET_KEY = /(?:api[-_]?key|secret|password|passwd|authorization|cookie|token)$/i
// Page text: kept out by name, and any long string is cut wherever it hides.
const CONTENT_KEY = /^(?:content|markdown|body|text|source|original|updated|partial|selectedText|fileContent)$/i
const MAX_STRING = 200
const MAX_DEPTH = 4

function scrub(value: unknown, depth: number, seen: WeakSet<object>): unknown {
  if (typeof value === 'string') {
    return value.length > MAX_STRING ? `${value.slice(0, MAX_STRING)}… [${value.length} chars]` : value
  }
  if (typeof value !== 'object' || value === null) return value
  if (value instanceof Error) {
    const code = (value as { code?: unknown }).code
    return { name: value.name, message: scrub(value.message, depth + 1, seen), ...(code === undefined ? {} : { code }) }
  }
  if (seen.has(value) || depth >= MAX_DEPTH) return '[…]'
  seen.add(value)
  if (Array.isArray(value)) return value.map((item) => scrub(item, depth + 1, seen))
  const result: Record<string, unknown> = {}
  for (const [key, item] of Object.entries(value)) {
    if (SECRET_KEY.test(key)) result[key] = '[redacted]'
    else if (CONTENT_KEY.test(key) && typeof item === 'string') result[key] = `[${item.length} chars]`
    else result[key] = scrub(item, depth + 1, seen)
  }
  return result
}

/** A copy of `fields` safe to log: secrets replaced, page text reduced to its length, long strings cut. */
export function redact(fields: Record<string, unknown>): Record<string, unknown> {
  return scrub(fields, 0, new WeakSet()) as Record<string, unknown>
}

function isDevBuild(): boolean {
  // `import.meta.env` exists under Vite and vitest only; guard for plain ESM hosts.
  const env = (import.meta as { env?: { DEV?: unknown } }).env
  return env?.DEV === true
}

/** `localStorage.setItem('metablog:debug', '1')` in the dev page's console prints every entry there, not only warnings and errors. */
export const DEBUG_SWITCH = 'metablog:debug'

function debugAsked(): boolean {
  try {
    return globalThis.localStorage?.getItem(DEBUG_SWITCH) != null
  } catch {
    return false // storage refused (a sandboxed frame)
  }
}

/**
 * The dev console: warnings and errors, or every entry when asked. A step of the agent loop logs a
 * handful of entries, and with DevTools open a console call costs about a millisecond: they print
 * after the current task, several at once, so the loop's next request leaves first.
 */
function consoleSink(everything: boolean): LogSink {
  const unprinted: LogEntry[] = []
  return (entry) => {
    if (!everything && (entry.level === 'debug' || entry.level === 'info')) return
    if (unprinted.push(entry) > 1) return
    setTimeout(() => {
      for (const queued of unprinted.splice(0)) console[queued.level](`[metablog] ${queued.event}`, queued)
    }, 0)
  }
}

export function createLogger(options: LoggerOptions = {}): Logger {
  const capacity = Math.max(1, Math.floor(options.capacity ?? DEFAULT_LOG_CAPACITY))
  const threshold = LOG_LEVELS.indexOf(options.level ?? 'debug')
  const now = options.now ?? (() => Date.now())
  const sink = options.sink === undefined ? ((options.dev ?? isDevBuild()) ? consoleSink(debugAsked()) : null) : options.sink
  const listeners = createListenerSet<LogEntry>('log entries')
  let buffer: LogEntry[] = []
  let next = 0

  return {
    log(event, fields = {}, level = DEFAULT_LEVELS[event] ?? 'info') {
      if (LOG_LEVELS.indexOf(level) < threshold) return
      // Reserved keys come last so a field cannot disguise the entry.
      const entry: LogEntry = { ...redact(fields), time: now(), event, level }
      if (buffer.length < capacity) buffer.push(entry)
      else buffer[next] = entry
      next = (next + 1) % capacity
      try {
        sink?.(entry)
      } catch (error) {
        console.error('[metablog] the log sink threw; the entry is still buffered.', error)
      }
      listeners.emit(entry)
    },
    entries() {
      return buffer.length < capacity ? [...buffer] : [...buffer.slice(next), ...buffer.slice(0, next)]
    },
    clear() {
      buffer = []
      next = 0
    },
    subscribe(listener) {
      return listeners.add(listener)
    },
  }
}
