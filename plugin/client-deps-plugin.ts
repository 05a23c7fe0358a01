import { fileURLToPath } from 'node:url'
import type { SiteConfig } from 'vitepress'
import { usesKnowledgeGraph } from './graph-usage.js'
import { clientModule } from './client-bundle.js'
import {
  ASSISTANT_MODULE_ID,
  GRAPH_COMPONENT_MODULE_ID,
  LOCAL_GRAPH_MODULE_ID,
  RESOLVED_ASSISTANT_MODULE_ID,
  RESOLVED_GRAPH_COMPONENT_MODULE_ID,
  RESOLVED_LOCAL_GRAPH_MODULE_ID,
} from './virtual-modules.js'
import type { Plugin } from './vite-types.js'

// Everything the theme and the orb import from npm. Vite finds these only when a page first loads
// them, and re-optimizing then reloads the page under the author; declaring them avoids that.
const CLIENT_DEPENDENCIES = [
  'pinia',
  'd3-force',
  'slugify',
  'diff',
  'openai',
  'markdown-it',
  'highlight.js/lib/core',
  ...['bash', 'css', 'diff', 'javascript', 'json', 'markdown', 'python', 'shell', 'typescript', 'xml', 'yaml'].map(
    (language) => `highlight.js/lib/languages/${language}`,
  ),
  'pinyin-pro',
]

// MetaBlog's entries resolve to its own bundles (client-bundle.ts), which import virtual modules only its plugins serve: never pre-bundled.
const OWN_ENTRIES = ['metablog', 'metablog/client', 'metablog/theme']

/** The module that loads KnowledgeGraph, for either virtual loader that needs it. */
const loadKnowledgeGraph = (command: 'serve' | 'build') => `export default () => import(${JSON.stringify(clientModule('knowledge-graph', command))})`

/**
 * Pre-bundles the client's dependencies when the dev server starts; compiles MetaBlog's client with
 * the site. A build never sees the writer's client: its module is null there, so Rollup loads none of it.
 */
export function clientDepsPlugin(): Plugin {
  // Installed from npm, the dependencies sit beside metablog; in this repository, at the root.
  const installed = fileURLToPath(import.meta.url).includes('/node_modules/metablog/')
  let command: 'serve' | 'build' = 'serve'
  // In dev the graph is registered always: it compiles only when a page shows it.
  let graphUsed = true
  return {
    name: 'metablog:client-deps',
    resolveId(id) {
      if (id === ASSISTANT_MODULE_ID) return RESOLVED_ASSISTANT_MODULE_ID
      if (id === LOCAL_GRAPH_MODULE_ID) return RESOLVED_LOCAL_GRAPH_MODULE_ID
      return id === GRAPH_COMPONENT_MODULE_ID ? RESOLVED_GRAPH_COMPONENT_MODULE_ID : undefined
    },
    load(id, options) {
      // A build that never shows the graph compiles none of it (the component, d3) nor copies its worker.
      if (id === RESOLVED_GRAPH_COMPONENT_MODULE_ID) return graphUsed ? loadKnowledgeGraph(command) : 'export default null'
      // The local graph is never rendered on the server, so the server bundle need not compile it.
      if (id === RESOLVED_LOCAL_GRAPH_MODULE_ID) return options?.ssr ? 'export default null' : loadKnowledgeGraph(command)
      if (id !== RESOLVED_ASSISTANT_MODULE_ID) return undefined
      return command === 'build' ? 'export default null' : `import * as assistant from ${JSON.stringify(clientModule('dev-assistant', command))}\nexport default assistant`
    },
    async configResolved(config) {
      const site = (config as { vitepress?: SiteConfig }).vitepress
      if (config.command === 'build' && site) graphUsed = await usesKnowledgeGraph(site)
    },
    config(_config, environment) {
      command = environment.command
      return {
        ssr: { noExternal: ['metablog'] },
        ...(environment.command === 'serve'
          ? {
              optimizeDeps: {
                include: CLIENT_DEPENDENCIES.map((dependency) => (installed ? `metablog > ${dependency}` : dependency)),
                exclude: OWN_ENTRIES,
              },
            }
          : {}),
      }
    },
  }
}
