// The dev server's API, loaded only when `vitepress dev` starts: a build never imports the model
// gateway (openai), the stores or the routes.
import type { Server as HttpServer } from 'node:http'
import path from 'node:path'
import type { SiteConfig } from 'vitepress'
import { API_PREFIX } from './protocol.js'
import { CheckpointStore } from '../server/checkpoint-store.js'
import { FileStore } from '../server/file-store.js'
import { cutSlowHeaders } from '../server/header-timeout.js'
import { createLlmGateway } from '../server/llm/gateway.js'
import { LockManager } from '../server/locks.js'
import { createRequestGuard } from '../server/request-guard.js'
import { PromptLibrary } from '../server/prompts/prompt-library.js'
import { SessionStore } from '../server/sessions/session-store.js'
import { checkpointsMiddleware } from './middleware/checkpoints.js'
import { filesMiddleware, pagesMiddleware } from './middleware/files.js'
import { sendEvent } from './events.js'
import { gateMiddleware } from './middleware/gate.js'
import { knowledgeMiddleware } from './middleware/knowledge.js'
import { llmMiddleware } from './middleware/llm.js'
import { locksMiddleware } from './middleware/locks.js'
import { notFoundMiddleware } from './middleware/not-found.js'
import { promptsMiddleware } from './middleware/prompts.js'
import { sessionsMiddleware } from './middleware/sessions.js'
import type { KnowledgeService } from './knowledge-service.js'
import type { ResolvedOptions } from './options.js'
import { PageChangeFeed } from './page-change-feed.js'
import { watchPrompts } from './prompts-watcher.js'
import type { ViteDevServer } from './vite-types.js'

function siteConfigOf(server: ViteDevServer): SiteConfig {
  const site = (server.config as { vitepress?: SiteConfig }).vitepress
  if (!site) throw new Error('[metablog] withMetaBlog() must wrap a VitePress config: no VitePress site config was found.')
  return site
}

/** The security gate and every route, mounted in one place, in order. */
export function mountDevApi(server: ViteDevServer, options: ResolvedOptions, knowledge: KnowledgeService, processToken: string): void {
  const site = siteConfigOf(server)
  const log = server.config.logger
  const locks = new LockManager({ ttlMs: options.lockTtlMs })
  const store = new FileStore({ sourceDir: site.srcDir, locks })
  const checkpoints = new CheckpointStore({
    folder: path.join(site.cacheDir, 'metablog', 'checkpoints'),
    maxAgeMs: options.checkpointMaxAgeMs,
    warn: (message) => log.warn(message),
  })
  const sessions = new SessionStore({
    folder: path.join(site.cacheDir, 'metablog', 'sessions'),
    warn: (message) => log.warn(message),
  })
  const prompts = new PromptLibrary(path.resolve(site.root, options.promptsDir))
  watchPrompts(server, prompts, site.root)
  const gateway = createLlmGateway({ llm: options.llm, envDir: site.root, mode: server.config.mode, log: (message) => log.info(message) })
  server.httpServer?.once('close', () => gateway.close())
  const feed = new PageChangeFeed(site.srcDir, { logError: (message) => log.error(message) })
  feed.subscribe(({ content: _content, ...payload }) => sendEvent(server, 'metablog:file-changed', payload))
  feed.subscribe((change) => knowledge.apply(change, server))
  server.watcher.on('all', (event, file) => {
    feed.fileEvent(event, file).catch((error: Error) => log.error(`[metablog] ${error.message}`))
  })
  // Only files older than a minute: a younger one may belong to a write in flight.
  for (const owner of [store, checkpoints]) {
    owner.removeStaleTempFiles().catch((error: Error) => log.warn(`[metablog] could not clean temp files: ${error.message}`))
  }

  const checkRequest = createRequestGuard({
    token: processToken,
    allowedHosts: server.config.server.allowedHosts,
    https: Boolean(server.config.server.https),
  })
  // Headers come before any route: one trickling in is cut for the whole (plain HTTP) server.
  if (server.httpServer && !server.config.server.https) cutSlowHeaders(server.httpServer as HttpServer)
  const api = server.middlewares
  // 0. While any request is being answered, the search index's background build holds back.
  api.use(function requestsInFlightMiddleware(_request, response, next) {
    response.once('close', knowledge.requestStarted())
    next()
  })
  // 1. The gate: host, origin, token, content type, size, JSON (the body within a few seconds).
  api.use(API_PREFIX, gateMiddleware({ checkRequest, bodyLimit: options.bodyLimit }))
  // 2. Pages, locks and checkpoints.
  api.use(API_PREFIX, filesMiddleware(store, feed))
  api.use(API_PREFIX, pagesMiddleware(store))
  api.use(API_PREFIX, locksMiddleware(locks, site.srcDir))
  for (const middleware of checkpointsMiddleware(checkpoints)) api.use(API_PREFIX, middleware)
  // 3. The model gateway: the API key stays in this process.
  for (const middleware of llmMiddleware(gateway)) api.use(API_PREFIX, middleware)
  // 4. The knowledge layer: graph and search.
  for (const middleware of knowledgeMiddleware({ ready: async () => (await knowledge.ready, knowledge.index), now: () => knowledge.builtIndex })) api.use(API_PREFIX, middleware)
  // 5. Conversations: session logs and the custom prompt files.
  for (const middleware of sessionsMiddleware(sessions)) api.use(API_PREFIX, middleware)
  api.use(API_PREFIX, promptsMiddleware(prompts))
  // 6. Anything else under the prefix is an API error, never the blog's HTML fallback.
  api.use(API_PREFIX, notFoundMiddleware())
}
