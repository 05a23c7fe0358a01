import type { CompactGraph, GraphResponse } from '../../plugin/protocol'

/** The build's graph asset back into the API's shape. */
export function decodeGraph(compact: CompactGraph): GraphResponse {
  const paths = compact.nodes.map(([path]) => path)
  return {
    nodes: compact.nodes.map(([path, title, tags]) => ({ path, title, tags })),
    edges: compact.edges.map(([source, target, heading]) => ({ source: paths[source]!, target: paths[target]!, ...(heading === undefined ? {} : { heading }) })),
    unresolved: compact.unresolved.map(([source, target, kind]) => ({ source: paths[source]!, target, ...(kind ? { kind } : {}) })),
  }
}
