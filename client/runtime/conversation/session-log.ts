// The session log writer: entries are queued and sent in batches, so logging never holds up the loop.
import type { SessionEntry, SessionEntryInput, SessionsApi } from '../../api/sessions'
import type { Logger } from '../logger'

/** How long entries wait to be sent together. */
export const FLUSH_DELAY_MS = 250
/** How long a batch the server did not take waits to be sent again; doubled at each failure in a row, up to a minute. */
export const RETRY_DELAY_MS = 2_000
const MAX_RETRY_DELAY_MS = 60_000
/** Entries kept while the server cannot take them; the oldest go first. */
const MAX_PENDING = 500
/** At most this many entries, and about this many characters of them, go in one request (the API takes 2 MiB bodies). */
export const MAX_BATCH_ENTRIES = 100
const MAX_BATCH_CHARS = 1024 * 1024

/** A session id: sortable by time, unique enough for one author's machine. */
export function newSessionId(now = Date.now()): string {
  return `s-${now.toString(36)}-${Math.random().toString(36).slice(2, 8)}`
}

/** The first entries of `entries` that fit one request: at least one. */
function batchOf(entries: SessionEntry[]): SessionEntry[] {
  let chars = 0
  let count = 0
  while (count < entries.length && count < MAX_BATCH_ENTRIES) {
    chars += JSON.stringify(entries[count]).length
    if (count > 0 && chars > MAX_BATCH_CHARS) break
    count++
  }
  return entries.slice(0, count)
}

export class SessionLog {
  /** Entries not sent yet, in the order written, grouped by the session they were written in. */
  private queue: { id: string; entries: SessionEntry[] }[] = []
  private timer: ReturnType<typeof setTimeout> | undefined
  private sending: Promise<void> = Promise.resolve()
  /** Set when the dev server has no session routes, or no longer takes this page's requests: logging stops. */
  private unavailable = false
  /** Sends that failed in a row: a run of failures is reported once, and each waits longer. */
  private failures = 0
  /** While a failed batch waits to be sent again, nothing is sent before this time. */
  private retryAt = 0
  /** What was refused already, by session and error code: said once. */
  private readonly refused = new Set<string>()

  constructor(
    private readonly api: SessionsApi,
    private readonly logger: Logger,
    public id: string = newSessionId(),
  ) {}

  /** Queues an entry; it is sent with the next batch. */
  append(entry: SessionEntryInput): void {
    if (this.unavailable) return
    const stamped = { v: 1, at: new Date().toISOString(), ...entry } as SessionEntry
    const last = this.queue.at(-1)
    if (last?.id === this.id) last.entries.push(stamped)
    else this.queue.push({ id: this.id, entries: [stamped] })
    this.trim()
    this.timer ??= setTimeout(() => void this.flush(), FLUSH_DELAY_MS)
  }

  /** Continues another session: later entries go to its log. */
  switchTo(id: string): void {
    void this.flush()
    this.id = id
  }

  /** Starts a new session. */
  restart(): void {
    this.switchTo(newSessionId())
  }

  /** Sends what is queued now; resolves when it is sent (or kept for the next try). Never throws. */
  flush(): Promise<void> {
    clearTimeout(this.timer)
    this.timer = undefined
    this.sending = this.sending.then(() => this.sendQueued())
    return this.sending
  }

  /** Sends the queue's groups in order, a request at a time; a failed one stays first in line for the retry. */
  private async sendQueued(): Promise<void> {
    for (let group = this.queue[0]; group && !this.unavailable; group = this.queue[0]) {
      // Too early (a flush within the wait, or a timer that fired before the clock reached it): the retry stays due.
      if (Date.now() < this.retryAt) return this.retryLater()
      const batch = batchOf(group.entries)
      // Entries written while this batch is out join the group for the next one.
      group.entries = group.entries.slice(batch.length)
      try {
        if (batch.length) await this.api.append(group.id, batch)
        this.failures = 0
        this.retryAt = 0
      } catch (error) {
        if (this.failed(group.id, error)) {
          group.entries = [...batch, ...group.entries]
          this.trim()
          return
        }
      }
      if (group.entries.length === 0 && this.queue[0] === group) this.queue.shift()
    }
  }

  /** Reports a failed send; true when the batch is kept to be sent again. */
  private failed(id: string, error: unknown): boolean {
    const status = (error as { status?: number }).status ?? 0
    const message = (error as Error).message
    const stop = (why: string) => {
      this.unavailable = true
      this.queue = []
      this.logger.log('agent.error', { where: 'session-log', message: why }, 'warn')
      return false
    }
    if (status === 404 || status === 405) return stop('The dev server has no session routes; the conversation is not logged.')
    // The token is the dev server's of the moment: after a restart, this page's requests are refused.
    if (status === 401 || status === 403) return stop(`The dev server no longer takes this page's requests (${message}); reload the page to log the conversation again.`)
    // Refused for what it holds (the log is full, an entry is not valid): sent again, it would be refused again.
    if (status >= 400 && status < 500 && status !== 408 && status !== 429) {
      const code = (error as { code?: string }).code ?? String(status)
      if (!this.refused.has(`${id} ${code}`)) this.logger.log('agent.error', { where: 'session-log', message: `Some of this conversation was not logged: ${message}` }, 'warn')
      this.refused.add(`${id} ${code}`)
      return false
    }
    // Kept, and sent again later: the dev server may be busy or briefly away.
    if (this.failures === 0) this.logger.log('agent.error', { where: 'session-log', message }, 'warn')
    this.failures++
    const delay = Math.min(RETRY_DELAY_MS * 2 ** (this.failures - 1), MAX_RETRY_DELAY_MS)
    this.retryAt = Date.now() + delay
    this.retryLater()
    return true
  }

  /** Sends the queue again at `retryAt`. */
  private retryLater(): void {
    clearTimeout(this.timer)
    this.timer = setTimeout(() => void this.flush(), Math.max(0, this.retryAt - Date.now()))
  }

  /** Keeps at most MAX_PENDING entries queued, the oldest going first (an emptied group is left for sendQueued). */
  private trim(): void {
    let excess = this.queue.reduce((count, group) => count + group.entries.length, 0) - MAX_PENDING
    for (const group of this.queue) {
      if (excess <= 0) return
      const dropped = Math.min(excess, group.entries.length)
      group.entries.splice(0, dropped)
      excess -= dropped
    }
  }
}
