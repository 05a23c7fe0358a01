const DONE = /(^|\n)data: ?\[DONE\]/

/**
 * Splits an upstream byte stream at server-sent-event boundaries, so the gateway only ever
 * forwards whole events: if the upstream breaks mid-event, the error event that follows is not
 * glued to half a line. Chunks that already end on a boundary (nearly all) pass through as is.
 */
export class SseFramer {
  private pending: Buffer | null = null
  /** Whether a `data: [DONE]` event has passed: the upstream finished its answer. */
  sawDone = false

  /** The whole events this chunk completes, or null when it only adds to a partial one. */
  push(chunk: Uint8Array): Buffer | null {
    const bytes = Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength)
    const data = this.pending ? Buffer.concat([this.pending, bytes]) : bytes
    const end = boundaryEnd(data)
    if (end === 0) {
      this.pending = data
      return null
    }
    this.pending = end < data.length ? data.subarray(end) : null
    const complete = end < data.length ? data.subarray(0, end) : data
    if (!this.sawDone && complete.includes('[DONE]') && DONE.test(complete.toString('utf8'))) this.sawDone = true
    return complete
  }

  /**
   * At a clean end of the upstream body: a trailing `data: [DONE]` that lacks its blank line
   * still counts (some servers omit it); any other unfinished event is dropped.
   */
  finish(): Buffer | null {
    const rest = this.pending
    this.pending = null
    if (!rest || !DONE.test(rest.toString('utf8').trim())) return null
    this.sawDone = true
    return Buffer.concat([rest, Buffer.from('\n\n')])
  }
}

/** The index just after the last blank line (LF or CRLF style), or 0 when there is none. */
function boundaryEnd(data: Buffer): number {
  const length = data.length
  if (length >= 2 && data[length - 1] === 0x0a && data[length - 2] === 0x0a) return length
  const lf = data.lastIndexOf('\n\n')
  const crlf = data.lastIndexOf('\r\n\r\n')
  return Math.max(lf === -1 ? 0 : lf + 2, crlf === -1 ? 0 : crlf + 4)
}
