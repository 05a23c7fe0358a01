import type { Server } from 'node:http'
import type { Socket } from 'node:net'
import { DEFAULT_REQUEST_TIMEOUT_MS, requestTimeoutError } from './http.js'

/**
 * Cuts a connection whose request headers trickle in: once a byte of a request has arrived, the
 * headers must be complete within `timeoutMs`, or the client gets 408 ERR_TIMEOUT and the socket
 * is closed. Node's own headersTimeout is checked only every 30 s (and is 60 s), so a slow client
 * could hold a connection for a minute. Headers come before any routing, so this watches every
 * connection of the server; a browser sends its headers at once, and an idle keep-alive
 * connection (no byte of a next request yet) is left to Node, as before.
 */
export function cutSlowHeaders(server: Server, timeoutMs = DEFAULT_REQUEST_TIMEOUT_MS): void {
  const timers = new WeakMap<Socket, NodeJS.Timeout>()
  const disarm = (socket: Socket) => {
    clearTimeout(timers.get(socket))
    timers.delete(socket)
  }
  const arm = (socket: Socket) => {
    disarm(socket)
    const bytesBefore = socket.bytesRead
    const timer = setTimeout(() => {
      timers.delete(socket)
      if (socket.destroyed) return
      // Nothing of a request yet: an idle connection, not a slow one.
      if (socket.bytesRead === bytesBefore) return arm(socket)
      const body = JSON.stringify(requestTimeoutError(timeoutMs).toBody())
      // The server keeps half-open sockets: destroy once the answer is written, or the client could hold it.
      socket.end(
        `HTTP/1.1 408 Request Timeout\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
        () => socket.destroy(),
      )
    }, timeoutMs)
    timer.unref()
    timers.set(socket, timer)
  }
  server.on('connection', (socket: Socket) => {
    arm(socket)
    socket.once('close', () => disarm(socket))
  })
  server.on('request', (request, response) => {
    const socket = request.socket as Socket
    disarm(socket)
    // A kept-alive connection waits for its next request's headers once this answer is out.
    response.once('finish', () => {
      if (!socket.destroyed) arm(socket)
    })
  })
  server.on('upgrade', (request) => disarm(request.socket as Socket))
}
