// The dev server's routes, stores and model gateway, loaded on first need (plugin/dev-api-loader.ts):
// neither a build nor the dev server's start imports openai, markdown-it or the stores.
import path from 'node:path'
import type { SiteConfig } from 'vitepress'
import { CheckpointStore } from '../server/checkpoint-store.js'
import { FileStore } from '../server/file-store.js'
import { createLlmGateway } from '../server/llm/gateway.js'
import { LockManager } from '../server/locks.js'
import { PromptLibrary } from '../server/prompts/prompt-library.js'
import { SessionStore } from '../server/sessions/session-store.js'
import { checkpointsMiddleware } from './middleware/checkpoints.js'
import { filesMiddleware, pagesMiddleware } from './middleware/files.js'
import { sendEvent } from './events.js'
import { llmMiddleware } from './middleware/llm.js'
import { locksMiddleware } from './middleware/locks.js'
import { notFoundMiddleware } from './middleware/not-found.js'
import { promptsMiddleware } from './middleware/prompts.js'
import { sessionsMiddleware } from './middleware/sessions.js'
import type { ApiMiddleware } from './middleware/api-handler.js'
import type { DevApi } from './dev-api-loader.js'
import type { KnowledgeService } from './knowledge-service.js'
import type { ResolvedOptions } from './options.js'
import { PageChangeFeed } from './page-change-feed.js'
import { watchPrompts } from './prompts-watcher.js'
import type { ViteDevServer } from './vite-types.js'

/** Every route behind the gate, in order, and the stores and feeds they share. */
export function createDevApi(server: ViteDevServer, site: SiteConfig, options: ResolvedOptions, knowledge: KnowledgeService): DevApi {
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
  const promptEvent = watchPrompts(server, prompts)
  const gateway = createLlmGateway({ llm: options.llm, envDir: site.root, mode: server.config.mode, log: (message) => log.info(message) })
  const feed = new PageChangeFeed(site.srcDir, { logError: (message) => log.error(message) })
  server.httpServer?.once('close', () => {
    gateway.close()
    feed.close()
  })
  feed.subscribe(({ content: _content, ...payload }) => sendEvent(server, 'metablog:file-changed', payload))
  feed.subscribe((change) => knowledge.apply(change, server))
  // Only files older than a minute: a younger one may belong to a write in flight.
  for (const owner of [store, checkpoints]) {
    owner.removeStaleTempFiles().catch((error: Error) => log.warn(`[metablog] could not clean temp files: ${error.message}`))
  }

  const routes: ApiMiddleware[] = [
    // 3. Pages, locks and checkpoints (1, the gate, and 2, graph and search, are mounted in dev-api-plugin.ts).
    filesMiddleware(store, feed),
    pagesMiddleware(store),
    locksMiddleware(locks, site.srcDir),
    ...checkpointsMiddleware(checkpoints),
    // 4. The model gateway: the API key stays in this process.
    ...llmMiddleware(gateway),
    // 5. Conversations: session logs and the custom prompt files.
    ...sessionsMiddleware(sessions),
    promptsMiddleware(prompts),
    // 6. Anything else under the prefix is an API error, never the blog's HTML fallback.
    notFoundMiddleware(),
  ]
  return {
    routes,
    fileEvent(event, file) {
      promptEvent(event, file)
      feed.fileEvent(event, file).catch((error: Error) => log.error(`[metablog] ${error.message}`))
    },
  }
}
