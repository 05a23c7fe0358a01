import { DevActivity } from './dev-activity.js'
import type { KnowledgeService } from './knowledge-service.js'
import { RESOLVED_GRAPH_MODULE_ID, SITE_DATA_MODULE_ID } from './virtual-modules.js'
import type { Plugin } from './vite-types.js'

/**
 * The index starts loading this long after the server listens if no request was answered by then
 * (the browser is slow to ask, or the author opens the page later): its build gives way to requests.
 */
const UNASKED_START_MS = 100

/**
 * In dev, the server listens before the knowledge index is built (seconds on a 10,000-page blog),
 * and starts building it once it has answered its first request (the page's HTML), in slices that
 * give way to requests: the browser fetches the app's code meanwhile, and only what depends on the
 * index waits for it here, before any other plugin loads it. That is every page (its links) and, when MetaBlog adds pages to the
 * author's own sidebar, the site data; the generated sidebar travels in page data, and the dev
 * graph module names no data. The search index builds after the first page (see KnowledgeService).
 */
export function knowledgeReadyPlugin(knowledge: KnowledgeService): Plugin {
  const activity = new DevActivity()
  const needsIndex = (id: string): boolean => {
    const path = id.split('?')[0]!
    return path.endsWith('.md') || (path === SITE_DATA_MODULE_ID && knowledge.shapesSiteData)
  }
  return {
    name: 'metablog:knowledge-ready',
    apply: 'serve',
    enforce: 'pre',
    config() {
      knowledge.deferTo(activity)
    },
    configureServer(server) {
      // Before every other middleware: background indexing holds back while any request is answered.
      server.middlewares.use(function requestActivityMiddleware(request, response, next) {
        response.once('close', activity.requestStarted(request.url ?? ''))
        next()
      })
      if (!server.httpServer) return activity.allowLoad()
      server.httpServer.once('listening', () => setTimeout(() => activity.allowLoad(), UNASKED_START_MS).unref())
    },
    async load(id) {
      if (needsIndex(id)) await knowledge.ready
      return null
    },
    transform(code, id) {
      // A generated module gets no map: Vite would attach a character-level one, 5× the data (4 MB for a 10,000-page sidebar).
      if (id === SITE_DATA_MODULE_ID || id === RESOLVED_GRAPH_MODULE_ID) return { code, map: { mappings: '' } }
      return undefined
    },
  }
}
