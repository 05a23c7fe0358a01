import type { KnowledgeService } from './knowledge-service.js'
import { RESOLVED_GRAPH_MODULE_ID, SITE_DATA_MODULE_ID } from './virtual-modules.js'
import type { Plugin } from './vite-types.js'

/** Modules whose content depends on the knowledge index: pages (their links), the site data (the sidebar), the graph. */
function needsIndex(id: string): boolean {
  const path = id.split('?')[0]!
  return path.endsWith('.md') || path === SITE_DATA_MODULE_ID || path === RESOLVED_GRAPH_MODULE_ID
}

/**
 * In dev, the server listens while the knowledge index is still being built (seconds on a
 * 10,000-page blog): the browser fetches the app's code meanwhile, and only what depends on the
 * index waits for it here, before any other plugin loads it.
 */
export function knowledgeReadyPlugin(knowledge: KnowledgeService): Plugin {
  return {
    name: 'metablog:knowledge-ready',
    apply: 'serve',
    enforce: 'pre',
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
