import { shallowRef, type ShallowRef } from 'vue'
import builtGraph from 'virtual:metablog/graph'
import type { GraphResponse } from '../../plugin/protocol'
import { eventBus } from '../event-bus'
import { createLatestRefresh } from './latest-refresh'

const graph: ShallowRef<GraphResponse> = shallowRef(builtGraph)
let listening = false

/** The current graph from the dev server (dev only: the API needs the page token); null elsewhere. */
async function loadGraph(): Promise<GraphResponse | null> {
  // Production builds drop this branch, and with it every trace of the dev-server API.
  if (!import.meta.env.DEV) return null
  const [{ connectionFromPage }, { createMetaBlogApi }] = await Promise.all([import('../api/connection'), import('../api/metablog-api')])
  const connection = connectionFromPage()
  return connection ? createMetaBlogApi(connection).graph() : null
}

const refresh = createLatestRefresh(loadGraph, (fresh) => (graph.value = fresh))

/**
 * The wiki-link graph, shared by every view: the build's data, kept live in dev by the page's
 * `graph:changed` events (which the dev server's `metablog:graph-updated` events raise).
 */
export function useKnowledgeGraph(): ShallowRef<GraphResponse> {
  if (!listening) {
    listening = true
    const stop = eventBus.on('graph:changed', () => refresh.schedule())
    // A hot update re-runs this module: the old listener must not stay behind.
    import.meta.hot?.dispose(() => {
      stop()
      refresh.cancel()
    })
  }
  return graph
}

/** The pages linking to `path`, with their titles, sorted by title. */
export function backlinksOf(data: GraphResponse, path: string): { path: string; title: string }[] {
  const titles = new Map(data.nodes.map((node) => [node.path, node.title]))
  const sources = new Set(data.edges.filter((edge) => edge.target === path && edge.source !== path).map((edge) => edge.source))
  return [...sources].map((source) => ({ path: source, title: titles.get(source) ?? source })).sort((a, b) => a.title.localeCompare(b.title))
}

/** The part of the graph within one link of `path`, either direction. */
export function neighbourhood(data: GraphResponse, path: string): GraphResponse {
  const near = new Set([path])
  for (const edge of data.edges) {
    if (edge.source === path) near.add(edge.target)
    if (edge.target === path) near.add(edge.source)
  }
  return {
    nodes: data.nodes.filter((node) => near.has(node.path)),
    edges: data.edges.filter((edge) => near.has(edge.source) && near.has(edge.target)),
    unresolved: data.unresolved.filter((link) => link.source === path),
  }
}
