import { TOKEN_META_NAME } from './protocol.js'
import { createToken } from '../server/request-guard.js'
import type { KnowledgeService } from './knowledge-service.js'
import type { ResolvedOptions } from './options.js'
import type { Plugin } from './vite-types.js'

// One token per dev-server process: a page reloaded after a config restart keeps working.
const processToken = createToken()

/** The dev server's API: the security gate and every route (plugin/dev-api.ts), loaded when the dev server starts. */
export function devApiPlugin(options: ResolvedOptions, knowledge: KnowledgeService): Plugin {
  return {
    name: 'metablog:dev-api',
    apply: 'serve',
    // Vite awaits this before its own middleware, so the gate still runs first.
    async configureServer(server) {
      const { mountDevApi } = await import('./dev-api.js')
      mountDevApi(server, options, knowledge, processToken)
    },
    transformIndexHtml() {
      return [{ tag: 'meta', attrs: { name: TOKEN_META_NAME, content: processToken }, injectTo: 'head' }]
    },
  }
}
