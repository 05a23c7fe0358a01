// STUB — to be implemented (issue 4).
import type { GraphResponse, SearchResult } from '../../plugin/protocol.js'

export class KnowledgeIndex {
  graph(): GraphResponse {
    return { nodes: [], edges: [], unresolved: [] }
  }

  search(_query: string): SearchResult[] {
    return []
  }
}
