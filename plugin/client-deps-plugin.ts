import { fileURLToPath } from 'node:url'
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
]

/** Pre-bundles the client's dependencies when the dev server starts. */
export function clientDepsPlugin(): Plugin {
  // Installed from npm, the dependencies sit beside metablog; in this repository, at the root.
  const installed = fileURLToPath(import.meta.url).includes('/node_modules/metablog/')
  return {
    name: 'metablog:client-deps',
    apply: 'serve',
    config() {
      return {
        optimizeDeps: {
          include: CLIENT_DEPENDENCIES.map((dependency) => (installed ? `metablog > ${dependency}` : dependency)),
        },
      }
    },
  }
}
