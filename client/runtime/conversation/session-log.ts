// The session log writer: entries are queued and sent in batches, so logging never holds up the loop.
import type { SessionEntry, SessionEntryInput, SessionsApi } from '../../api/sessions'
import type { Logger } from '../logger'

/** How long entries wait to be sent together. */
export const FLUSH_DELAY_MS = 250
/** How long a batch the server did not take waits to be sent again. */
export const RETRY_DELAY_MS = 2_000
/** Entries kept while the server cannot take them; the oldest go first. */
const MAX_PENDING = 500

/** A session id: sortable by time, unique enough for one author's machine. */
export function newSessionId(now = Date.now()): string {
  return `s-${now.toString(36)}-${Math.random().toString(36).slice(2, 8)}`
}

export class SessionLog {
  /** Entries not sent yet, in the order written, grouped by the session they were written in. */
  private queue: { id: string; entries: SessionEntry[] }[] = []
  private timer: ReturnType<typeof setTimeout> | undefined
  private sending: Promise<void> = Promise.resolve()
  /** Set when the dev server has no session routes: logging stops quietly. */
  private unavailable = false
  /** Whether the last send failed: a run of failures is reported once. */
  private failing = false

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
    this.schedule(FLUSH_DELAY_MS)
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

  private schedule(delayMs: number): void {
    this.timer ??= setTimeout(() => void this.flush(), delayMs)
  }

  /** Sends the queue's groups in order; a failed one stays first in line, and is tried again later. */
  private async sendQueued(): Promise<void> {
    for (let group = this.queue[0]; group && !this.unavailable; group = this.queue[0]) {
      const batch = group.entries
      // Entries written while this batch is out join the group for the next one.
      group.entries = []
      try {
        if (batch.length) await this.api.append(group.id, batch)
      } catch (error) {
        if (this.failed(error)) {
          group.entries = [...batch, ...group.entries]
          return
        }
      }
      this.failing = false
      if (group.entries.length === 0) this.queue.shift()
    }
  }

  /** Reports a failed send; true when the batch is kept to be sent again. */
  private failed(error: unknown): boolean {
    const status = (error as { status?: number }).status
    const message = (error as Error).message
    if (status === 404 || status === 405) {
      this.unavailable = true
      this.queue = []
      this.logger.log('agent.error', { where: 'session-log', message: 'The dev server has no session routes; the conversation is not logged.' }, 'warn')
      return false
    }
    // Refused for what it holds: sent again, it would be refused again, and hold up what follows.
    if (status !== undefined && status >= 400 && status < 500 && status !== 408 && status !== 429) {
      this.logger.log('agent.error', { where: 'session-log', message: `Some entries were not logged: ${message}` }, 'warn')
      return false
    }
    // Kept, and tried again: the dev server may be restarting.
    if (!this.failing) this.logger.log('agent.error', { where: 'session-log', message }, 'warn')
    this.failing = true
    this.schedule(RETRY_DELAY_MS)
    return true
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
