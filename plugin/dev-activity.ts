// The dev server's requests, as its background work (the knowledge index, the search index) sees them.
import { nextTurn } from '../server/knowledge/load-pages.js'

/** Background indexing waits while requests are answered, and this long after the last one ends... */
const QUIET_MS = 20
/** ...but never longer than this, so a busy server still gets its search index. */
const MAX_QUIET_WAIT_MS = 250
/** A page loading in the browser asks for its modules one after another, with shorter gaps than this. */
const LULL_MS = 200

const sleep = (milliseconds: number) => new Promise((resolve) => setTimeout(resolve, milliseconds))

/** A promise and the function that resolves it. */
function createSignal(): { reached: Promise<void>; reach: () => void } {
  let reach = () => {}
  const reached = new Promise<void>((resolve) => (reach = resolve))
  return { reached, reach }
}

/**
 * What the dev server is answering, and when its background work may start: the knowledge index
 * once the server has answered its first request (or `allowLoad`), the search index once it has
 * sent its first page module and then had a lull. Neither competes with the start or the first paint.
 */
export class DevActivity {
  private inFlight = 0
  private lastEndedAt = 0
  /** Loads a request waits for (the API's modules): background slices wait until they have settled. */
  private readonly foregroundLoads = new Set<Promise<unknown>>()
  private readonly pageServed = createSignal()
  private readonly loadAllowed = createSignal()

  /** Resolves once the server has sent a page's module (a `.md`): the browser has what it paints. */
  readonly firstPage = this.pageServed.reached
  /** Resolves once the server has answered a request (in practice the first page's HTML), or `allowLoad` was called. */
  readonly loadMayStart = this.loadAllowed.reached

  /** Lets background loading start now (something waits for it, or the server was asked nothing for a while). */
  allowLoad(): void {
    this.loadAllowed.reach()
  }

  /** Called as a request comes in; call what it returns when its answer is done (sent, or the connection closed). */
  requestStarted(url: string): () => void {
    this.inFlight++
    const page = url.split('?', 1)[0]!.endsWith('.md')
    let done = false
    return () => {
      if (done) return
      done = true
      this.inFlight--
      this.lastEndedAt = performance.now()
      this.loadAllowed.reach()
      if (page) this.pageServed.reach()
    }
  }

  /**
   * Marks `work` as something a request waits for: until it settles, background slices (see `turn`)
   * wait. Loading modules takes many small asynchronous steps, and each would otherwise wait behind
   * a slice of the index build.
   */
  foreground<T>(work: Promise<T>): Promise<T> {
    const settled = work.then(
      () => undefined,
      () => undefined,
    )
    this.foregroundLoads.add(settled)
    void settled.then(() => this.foregroundLoads.delete(settled))
    return work
  }

  /** The pause between two slices of background work: one turn of the event loop, after any foreground load. */
  async turn(): Promise<void> {
    while (this.foregroundLoads.size > 0) await Promise.all(this.foregroundLoads)
    await nextTurn()
  }

  /** Resolves once no request is being answered and none ended just now, or after a bounded wait, so indexing still progresses. */
  async quiet(): Promise<void> {
    const started = performance.now()
    const busy = () => this.inFlight > 0 || performance.now() - this.lastEndedAt < QUIET_MS
    while (busy() && performance.now() - started < MAX_QUIET_WAIT_MS) await sleep(QUIET_MS)
    await nextTurn()
  }

  /** Resolves once the first page module was sent and the server then had a lull. */
  async afterFirstPage(): Promise<void> {
    await this.firstPage
    await this.lull()
  }

  /** Resolves once no request has been answered for LULL_MS. */
  async lull(): Promise<void> {
    const idleFor = () => (this.inFlight > 0 ? 0 : performance.now() - this.lastEndedAt)
    while (idleFor() < LULL_MS) await sleep(LULL_MS - idleFor())
  }
}
