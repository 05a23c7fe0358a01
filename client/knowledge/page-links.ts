import type { GraphResponse, PageLinks } from '../../plugin/protocol'

/**
 * A page's own build slice back into the graph's shape, as "Linked from" and the local graph read
 * it: tags, headings and unresolved links are not shipped (the local graph colours by folder, and
 * unresolved links show in dev only).
 */
export function decodePageLinks(links: PageLinks): GraphResponse {
  const paths = links.nodes.map(([path]) => path)
  return {
    nodes: links.nodes.map(([path, title]) => ({ path, title, tags: [] })),
    edges: links.edges.map(([source, target]) => ({ source: paths[source]!, target: paths[target]! })),
    unresolved: [],
  }
}
