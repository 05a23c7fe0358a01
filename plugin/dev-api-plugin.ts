import type { Server as HttpServer, ServerResponse } from 'node:http'
import type { SiteConfig } from 'vitepress'
import { API_PREFIX, TOKEN_META_NAME } from './protocol.js'
import { cutSlowHeaders } from '../server/header-timeout.js'
import { createRequestGuard, createToken } from '../server/request-guard.js'
import { createDevApiLoader, runRoutes } from './dev-api-loader.js'
import type { KnowledgeService } from './knowledge-service.js'
import { gateMiddleware } from './middleware/gate.js'
import type { ApiRequest, NextFunction } from './middleware/api-handler.js'
import { knowledgeMiddleware } from './middleware/knowledge.js'
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
 * The dev server's API. The security gate and the knowledge routes are mounted when the server starts;
 * the other routes (plugin/dev-api.ts) load once it listens (or on an earlier request or file event), off the start path.
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
        async () => (await import('./dev-api.js')).createDevApi(server, site, options, knowledge),
        (message) => log.error(message),
      )
      server.watcher.on('all', (event, file) => api.fileEvent(event, file))
      const checkRequest = createRequestGuard({
        token: processToken,
        allowedHosts: server.config.server.allowedHosts,
        https: Boolean(server.config.server.https),
      })
      // Headers come before any route: one trickling in is cut for the whole (plain HTTP) server.
      if (server.httpServer && !server.config.server.https) cutSlowHeaders(server.httpServer as HttpServer)
      const middlewares = server.middlewares
      // 0. While any request is being answered, the search index's background build holds back.
      middlewares.use(function requestsInFlightMiddleware(_request, response, next) {
        response.once('close', knowledge.requestStarted())
        next()
      })
      // 1. The gate: host, origin, token, content type, size, JSON (the body within a few seconds).
      middlewares.use(API_PREFIX, gateMiddleware({ checkRequest, bodyLimit: options.bodyLimit }))
      // 2. Search and the graph: answered from the start, never behind the rest of the API loading.
      const knowledgeRoutes = knowledgeMiddleware({ ready: async () => (await knowledge.ready, knowledge.index), now: () => knowledge.builtIndex })
      middlewares.use(API_PREFIX, function metablogKnowledgeMiddleware(request: ApiRequest, response: ServerResponse, next: NextFunction) {
        runRoutes(knowledgeRoutes, request, response, next)
      })
      // 3.–6. Every other route (plugin/dev-api.ts), loaded by the first request that needs it or
      // right after the server listens, whichever comes first: a call made once the page is up never waits for it.
      middlewares.use(API_PREFIX, api.middleware)
      // Indexing gives way meanwhile: the modules load in a fraction of a second rather than one file per slice.
      server.httpServer?.once('listening', () => setImmediate(() => knowledge.giveWay(api.load())))
    },
    transformIndexHtml() {
      return [{ tag: 'meta', attrs: { name: TOKEN_META_NAME, content: processToken }, injectTo: 'head' }]
    },
  }
}
