// The session log writer: entries are queued and sent in batches, so logging never holds up the loop.
import type { SessionEntry, SessionEntryInput, SessionsApi } from '../../api/sessions'
import type { Logger } from '../logger'

/** How long entries wait to be sent together. */
export const FLUSH_DELAY_MS = 250
/** Entries kept while the server cannot take them; the oldest go first. */
const MAX_PENDING = 500

/** A session id: sortable by time, unique enough for one author's machine. */
export function newSessionId(now = Date.now()): string {
  return `s-${now.toString(36)}-${Math.random().toString(36).slice(2, 8)}`
}

export class SessionLog {
  private pending: SessionEntry[] = []
  private timer: ReturnType<typeof setTimeout> | undefined
  private sending: Promise<void> = Promise.resolve()
  /** Set when the dev server has no session routes: logging stops quietly. */
  private unavailable = false

  constructor(
    private readonly api: SessionsApi,
    private readonly logger: Logger,
    public id: string = newSessionId(),
  ) {}

  /** Queues an entry; it is sent with the next batch. */
  append(entry: SessionEntryInput): void {
    if (this.unavailable) return
    this.pending.push({ v: 1, at: new Date().toISOString(), ...entry } as SessionEntry)
    this.pending.splice(0, Math.max(0, this.pending.length - MAX_PENDING))
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
    // Taken now, so a batch goes to the session it was written in even if the session switches meanwhile.
    const batch = this.pending
    const id = this.id
    this.pending = []
    if (batch.length) this.sending = this.sending.then(() => this.send(id, batch))
    return this.sending
  }

  private async send(id: string, batch: SessionEntry[]): Promise<void> {
    if (this.unavailable) return
    try {
      await this.api.append(id, batch)
    } catch (error) {
      const status = (error as { status?: number }).status
      if (status === 404 || status === 405) {
        this.unavailable = true
        this.logger.log('agent.error', { where: 'session-log', message: 'The dev server has no session routes; the conversation is not logged.' }, 'warn')
        return
      }
      // Kept for the next batch of the same session: the dev server may be restarting.
      if (id === this.id) this.pending = [...batch, ...this.pending]
      this.logger.log('agent.error', { where: 'session-log', message: (error as Error).message }, 'warn')
    }
  }
}
