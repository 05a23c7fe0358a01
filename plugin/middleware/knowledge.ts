import type { GraphResponse, SearchResponse } from '../protocol.js'
import type { KnowledgeIndex } from '../../server/knowledge/knowledge-index.js'
import { createRoute } from './api-handler.js'

/** GET /graph and GET /search?q= from the live knowledge index. */
export function knowledgeMiddleware(index: () => KnowledgeIndex) {
  const graph = createRoute(/^\/graph$/, {
    async GET() {
      return { body: index().graph() satisfies GraphResponse }
    },
  })
  const search = createRoute(/^\/search$/, {
    async GET(_request, url) {
      return { body: { results: index().search(url.searchParams.get('q') ?? '') } satisfies SearchResponse }
    },
  })
  return [graph, search]
}
