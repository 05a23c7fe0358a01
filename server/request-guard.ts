import { createHash, randomBytes, timingSafeEqual } from 'node:crypto'
import type { IncomingMessage } from 'node:http'
import { TOKEN_HEADER } from '../plugin/protocol.js'
import { MetaBlogError } from './errors.js'

export interface RequestGuardOptions {
  token: string
  /** Extra allowed hosts (Vite's `server.allowedHosts`); `true` allows any host. Entries starting with "." allow subdomains. */
  allowedHosts?: readonly string[] | true
  https?: boolean
}

/** A random per-process token, 256 bits. */
export function createToken(): string {
  return randomBytes(32).toString('base64url')
}

/** The host name of a Host header, without the port, lowercased; brackets kept for IPv6. */
export function hostnameOf(hostHeader: string): string {
  const host = hostHeader.trim().toLowerCase()
  if (host.startsWith('[')) return host.slice(0, host.indexOf(']') + 1)
  const colon = host.indexOf(':')
  return colon === -1 ? host : host.slice(0, colon)
}

function isLocalHost(hostname: string): boolean {
  return (
    hostname === 'localhost' ||
    hostname === '127.0.0.1' ||
    hostname === '[::1]' ||
    hostname.endsWith('.localhost')
  )
}

function matchesAllowed(hostname: string, allowed: readonly string[]): boolean {
  return allowed.some((entry) => {
    const rule = entry.toLowerCase()
    return rule.startsWith('.') ? hostname === rule.slice(1) || hostname.endsWith(rule) : hostname === rule
  })
}

function digest(value: string): Buffer {
  return createHash('sha256').update(value).digest()
}

/**
 * The contract's gate, in order: Host, then Origin, then token. Vite 5 runs plugin middleware
 * before its own host and CORS checks, so the API enforces them itself.
 */
export function createRequestGuard(options: RequestGuardOptions): (request: IncomingMessage) => void {
  const tokenDigest = digest(options.token)
  return function checkRequest(request) {
    const host = request.headers.host
    const hostname = host ? hostnameOf(host) : ''
    const allowed =
      options.allowedHosts === true || isLocalHost(hostname) || matchesAllowed(hostname, options.allowedHosts ?? [])
    if (!host || !allowed) {
      throw new MetaBlogError(
        'ERR_HOST',
        `Host ${JSON.stringify(host ?? '')} is not allowed. Open the blog on localhost, or add the host to Vite's server.allowedHosts.`,
      )
    }
    const origin = request.headers.origin
    const ownOrigin = `${options.https ? 'https' : 'http'}://${host.toLowerCase()}`
    if (origin !== undefined && origin.toLowerCase() !== ownOrigin) {
      throw new MetaBlogError('ERR_ORIGIN', `Requests from ${origin} are refused: only pages served by this dev server (${ownOrigin}) may call MetaBlog.`)
    }
    const token = request.headers[TOKEN_HEADER]
    if (typeof token !== 'string' || !timingSafeEqual(digest(token), tokenDigest)) {
      throw new MetaBlogError(
        'ERR_TOKEN',
        `Missing or wrong ${TOKEN_HEADER} header. Reload the page to get the current token (it changes when the dev server restarts).`,
      )
    }
  }
}
