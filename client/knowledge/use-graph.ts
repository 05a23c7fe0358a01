import { computed, onScopeDispose, shallowRef, watch, type ComputedRef, type Ref, type ShallowRef } from 'vue'
import { inBrowser, useData, withBase } from 'vitepress'
import assistant from 'virtual:metablog/assistant'
import graphAsset from 'virtual:metablog/graph'
import { pageKnowledgeOf, type CompactGraph, type GraphResponse } from '../../plugin/protocol'
import { eventBus } from '../event-bus'
import { decodeGraph } from './graph-asset'
import { neighbourhood } from './graph-neighbourhood'
import { createLatestRefresh } from './latest-refresh'
import { decodePageLinks } from './page-links'

export { backlinksOf, neighbourhood } from './graph-neighbourhood'

const EMPTY: GraphResponse = { nodes: [], edges: [], unresolved: [] }
const graph: ShallowRef<GraphResponse> = shallowRef(EMPTY)
let listening = false
let requested = false

/** The whole graph: from the dev server's API in dev (it needs the page token), from the build's JSON asset in production. */
async function loadGraph(): Promise<GraphResponse | null> {
  // A build resolves `assistant` to null, and with it every trace of the dev-server API.
  if (assistant) return assistant.loadLiveGraph()
  if (!graphAsset) return null
  const response = await fetch(withBase(`/${graphAsset}`))
  if (!response.ok) throw new Error(`metablog: the graph data ${graphAsset} answered ${response.status}.`)
  return decodeGraph((await response.json()) as CompactGraph)
}

const refresh = createLatestRefresh(loadGraph, (fresh) => (graph.value = fresh))

/**
 * The whole wiki-link graph, shared by every view and loaded on first use in the browser (empty
 * until then, and while rendering a build); kept live in dev by the page's `graph:changed` events.
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
  if (!requested && inBrowser) {
    requested = true
    void refresh.now()
  }
  return graph
}

/**
 * `path`'s neighbourhood: in dev, asked of the dev server (`GET /graph?path=`); in a build, the slice
 * that came with the page's own data when `path` is that page (no whole graph needed); otherwise cut
 * from the whole graph.
 */
export function usePageGraph(path: Ref<string | undefined>): ComputedRef<GraphResponse> {
  if (assistant) return liveNeighbourhood(path, assistant.loadLiveGraph)
  const { page } = useData()
  let whole: ShallowRef<GraphResponse> | null = null
  return computed(() => {
    const wanted = path.value
    if (!wanted) return EMPTY
    if (!import.meta.env.DEV && wanted === page.value.relativePath) {
      const links = pageKnowledgeOf(page.value)?.links
      return links ? decodePageLinks(links) : EMPTY
    }
    whole ??= useKnowledgeGraph()
    return neighbourhood(whole.value, wanted)
  })
}

/** In dev, `path`'s neighbourhood from the dev server, asked again when the path or the graph changes. */
function liveNeighbourhood(path: Ref<string | undefined>, load: (path: string) => Promise<GraphResponse | null>): ComputedRef<GraphResponse> {
  const slice = shallowRef<{ path: string; graph: GraphResponse } | null>(null)
  const refresh = createLatestRefresh(
    async () => {
      const wanted = path.value
      const graph = wanted ? await load(wanted) : EMPTY
      return graph && wanted ? { path: wanted, graph } : null
    },
    (fresh) => (slice.value = fresh),
  )
  if (inBrowser) {
    watch(path, () => void refresh.now(), { immediate: true })
    const stop = eventBus.on('graph:changed', () => refresh.schedule())
    onScopeDispose(() => {
      stop()
      refresh.cancel()
    })
  }
  // Another page's neighbours never show while this page's are on their way.
  return computed(() => (slice.value && slice.value.path === path.value ? slice.value.graph : EMPTY))
}
