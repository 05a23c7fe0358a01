import type { SiteConfig } from 'vitepress'
import type { KnowledgeService } from './knowledge-service.js'
import { GRAPH_MODULE_ID, RESOLVED_GRAPH_MODULE_ID } from './virtual-modules.js'
import type { Plugin } from './vite-types.js'

/** Loads the knowledge index before any page renders, sets the sidebar, serves the graph module. */
export function knowledgePlugin(knowledge: KnowledgeService): Plugin {
  return {
    name: 'metablog:knowledge',
    async configResolved(config) {
      const site = (config as { vitepress?: SiteConfig }).vitepress
      if (site) await knowledge.load(site, config.command)
    },
    resolveId(id) {
      return id === GRAPH_MODULE_ID ? RESOLVED_GRAPH_MODULE_ID : undefined
    },
    load(id) {
      return id === RESOLVED_GRAPH_MODULE_ID ? knowledge.graphModule() : undefined
    },
  }
}
