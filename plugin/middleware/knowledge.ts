import type { GraphResponse, SearchResponse } from '../protocol.js'
import type { KnowledgeIndex } from '../../server/knowledge/knowledge-index.js'
import { createRoute } from './api-handler.js'

/** GET /graph and GET /search?q= from the live knowledge index. */
/** `index` resolves once the index is built: until then these routes wait for it. */
export function knowledgeMiddleware(index: () => Promise<KnowledgeIndex>) {
  const graph = createRoute(/^\/graph$/, {
    async GET() {
      return { body: (await index()).graph() satisfies GraphResponse }
    },
  })
  const search = createRoute(/^\/search$/, {
    async GET(_request, url) {
      // Never waits behind the index's first build: until it is done, the answer says how much it covers.
      const { results, progress } = (await index()).searchNow(url.searchParams.get('q') ?? '')
      const body: SearchResponse = progress ? { results, partial: true, indexed: progress.indexed, total: progress.total } : { results }
      return { body }
    },
  })
  return [graph, search]
}
