import type { Server as HttpServer } from 'node:http'
import type { SiteConfig } from 'vitepress'
import { API_PREFIX, TOKEN_META_NAME } from './protocol.js'
import { cutSlowHeaders } from '../server/header-timeout.js'
import { createRequestGuard, createToken } from '../server/request-guard.js'
import { createDevApiLoader } from './dev-api-loader.js'
import type { KnowledgeService } from './knowledge-service.js'
import { gateMiddleware } from './middleware/gate.js'
import { watchPromptsFolder } from './prompts-watcher.js'
import type { ResolvedOptions } from './options.js'
import type { Plugin, ViteDevServer } from './vite-types.js'

// One token per dev-server process: a page reloaded after a config restart keeps working.
const processToken = createToken()

function siteConfigOf(server: ViteDevServer): SiteConfig {
  const site = (server.config as { vitepress?: SiteConfig }).vitepress
  if (!site) throw new Error('[metablog] withMetaBlog() must wrap a VitePress config: no VitePress site config was found.')
  return site
}

/**
 * The dev server's API. The security gate is mounted when the server starts; the routes behind it
 * load off the start path: graph and search with the first request, the others (plugin/dev-api.ts)
 * with the first request for one of them, the first file event, or once the first page is out.
 */
export function devApiPlugin(options: ResolvedOptions, knowledge: KnowledgeService): Plugin {
  return {
    name: 'metablog:dev-api',
    apply: 'serve',
    // Vite runs this before its own middleware, so the gate still runs first.
    configureServer(server) {
      const site = siteConfigOf(server)
      const log = server.config.logger
      const api = createDevApiLoader(
        // Ahead of the index's build: a request is waiting for these modules.
        () => knowledge.ahead(async () => (await import('./dev-api.js')).createDevApi(server, site, options, knowledge)),
        (message) => log.error(message),
      )
      server.watcher.on('all', (event, file) => api.fileEvent(event, file))
      watchPromptsFolder(server, site.root, options.promptsDir)
      // Graph and search are a few small modules of their own: a search right after the start does not wait for the model gateway.
      const knowledgeRoutes = createDevApiLoader(
        () => knowledge.ahead(async () => ({
          routes: (await import('./middleware/knowledge.js')).knowledgeMiddleware({
            ready: async () => (await knowledge.ready, knowledge.index),
            now: () => knowledge.builtIndex,
            searching: () => knowledge.startSearch(),
          }),
          fileEvent: () => undefined,
        })),
        (message) => log.error(message),
      )
      const checkRequest = createRequestGuard({
        token: processToken,
        allowedHosts: server.config.server.allowedHosts,
        https: Boolean(server.config.server.https),
      })
      // Headers come before any route: one trickling in is cut for the whole (plain HTTP) server.
      if (server.httpServer && !server.config.server.https) cutSlowHeaders(server.httpServer as HttpServer)
      const middlewares = server.middlewares
      // 1. The gate: host, origin, token, content type, size, JSON (the body within a few seconds).
      middlewares.use(API_PREFIX, gateMiddleware({ checkRequest, bodyLimit: options.bodyLimit }))
      // 2. The knowledge layer: graph and search, loaded by the first request that passed the gate.
      middlewares.use(API_PREFIX, knowledgeRoutes.middleware)
      // 3.–6. Every other route (plugin/dev-api.ts), loaded by the first request that reaches them, or
      // once the first page module is out: the page has what it paints, and the loading is done before
      // the orb (its code now one chunk) is up. After a lull instead, it often ran just as the author's
      // first call came (a search right after the orb showed: 93 ms median, against 38 ms).
      middlewares.use(API_PREFIX, api.middleware)
      void knowledge.firstPageSent().then(() => api.load().catch(() => undefined))
    },
    transformIndexHtml() {
      return [{ tag: 'meta', attrs: { name: TOKEN_META_NAME, content: processToken }, injectTo: 'head' }]
    },
  }
}
