import type { MetaBlogEventMap } from './protocol.js'
import type { ViteDevServer } from './vite-types.js'

/**
 * Sends a `metablog:*` event to every page, typed by the protocol. (Augmenting Vite's
 * CustomEventMap would type only whichever copy of Vite a package manager hoisted.)
 */
export function sendEvent<Name extends keyof MetaBlogEventMap>(server: ViteDevServer, name: Name, payload: MetaBlogEventMap[Name]): void {
  server.ws.send({ type: 'custom', event: name, data: payload })
}
