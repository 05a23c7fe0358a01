import type { GraphResponse, SearchResponse } from '../protocol.js'
import type { KnowledgeIndex } from '../../server/knowledge/knowledge-index.js'
import { createRoute } from './api-handler.js'

/** A search right after the server starts waits this long for the knowledge index, then answers without it (within 100 ms all told). */
const BRIEF_WAIT_MS = 50

const sleep = (milliseconds: number) => new Promise((resolve) => setTimeout(resolve, milliseconds))

/** Where the routes find the knowledge index: once built (waiting for it), or now (null while it is built). */
export interface KnowledgeSource {
  ready: () => Promise<KnowledgeIndex>
  now: () => KnowledgeIndex | null
  /** Called before a search is answered: the search index's background build must have started, or `searchNow` builds it all at once. */
  searching: () => void
}

/** GET /graph (or one page's neighbourhood, `?path=`) and GET /search?q= from the live knowledge index. */
export function knowledgeMiddleware(source: KnowledgeSource) {
  const graph = createRoute(/^\/graph$/, {
    async GET(_request, url) {
      const index = await source.ready()
      // A page's "Linked from" needs its neighbours only: on a 10,000-page blog the whole graph is megabytes.
      const path = url.searchParams.get('path')
      return { body: (path === null ? index.graph() : index.neighbourhood(path)) satisfies GraphResponse }
    },
  })
  const search = createRoute(/^\/search$/, {
    async GET(_request, url) {
      // Never waits long behind a build: until the search index is complete, the answer says how much it covers.
      const index = source.now() ?? (await Promise.race([source.ready(), sleep(BRIEF_WAIT_MS).then(() => null)]))
      if (!index) return { body: { results: [], partial: true, indexed: 0, total: 0 } satisfies SearchResponse }
      source.searching()
      const { results, progress } = index.searchNow(url.searchParams.get('q') ?? '')
      const body: SearchResponse = progress ? { results, partial: true, indexed: progress.indexed, total: progress.total } : { results }
      return { body }
    },
  })
  return [graph, search]
}
