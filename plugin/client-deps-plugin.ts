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
  'pinyin-pro',
]

// The client ships .vue files: Vite compiles them like the site's own, never pre-bundled or left to Node.
const OWN_ENTRIES = ['metablog', 'metablog/client', 'metablog/theme']

/** Pre-bundles the client's dependencies when the dev server starts; compiles MetaBlog's client with the site. */
export function clientDepsPlugin(): Plugin {
  // Installed from npm, the dependencies sit beside metablog; in this repository, at the root.
  const installed = fileURLToPath(import.meta.url).includes('/node_modules/metablog/')
  return {
    name: 'metablog:client-deps',
    config(_config, { command }) {
      return {
        ssr: { noExternal: ['metablog'] },
        ...(command === 'serve'
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
