// Where a blog takes MetaBlog's browser code from: under `vitepress dev`, the compiled modules and .vue
// files in dist/client, which Vite serves one by one; in a build, the site bundle (dist/client/site,
// made by build/bundle-client.mjs), the same code with its components compiled, in a handful of files.
import { fileURLToPath } from 'node:url'
import type { Plugin } from './vite-types.js'

export type ClientModule = 'theme' | 'client' | 'enhance-app' | 'sidebar-item' | 'knowledge-graph'

/** Each module's compiled file in dist/client, for the dev server. */
const COMPILED: Record<ClientModule, string> = {
  theme: 'theme/index.js',
  client: 'index.js',
  'enhance-app': 'enhance-app.js',
  'sidebar-item': 'theme/sidebar-item.js',
  'knowledge-graph': 'components/KnowledgeGraph.vue',
}

/** The file of one of MetaBlog's browser modules, beside the compiled plugin in dist/, for the dev server or a build. */
export function clientModule(name: ClientModule, command: 'serve' | 'build'): string {
  return fileURLToPath(new URL(`../client/${command === 'build' ? `site/${name}.js` : COMPILED[name]}`, import.meta.url))
}

const THEME_ENTRY = 'metablog/theme'
const CLIENT_ENTRY = 'metablog/client'

interface Node {
  type: string
  source?: { value?: unknown } | null
  specifiers?: { type: string; imported?: { name?: string; value?: string } }[]
}

/** True when the module's code takes nothing but `enhanceApp` from the client entry, in plain import statements. */
export function importsOnlyEnhanceApp(code: string, parse: (code: string) => { body: Node[] }): boolean {
  let statements = 0
  for (const node of parse(code).body) {
    if (node.source?.value !== CLIENT_ENTRY) continue
    if (node.type !== 'ImportDeclaration' || !node.specifiers?.length) return false
    const names = node.specifiers.map((specifier) => (specifier.type === 'ImportSpecifier' ? (specifier.imported?.name ?? specifier.imported?.value) : undefined))
    if (names.some((name) => name !== 'enhanceApp')) return false
    statements++
  }
  // Any other mention (a dynamic import, a re-export in an expression) keeps the whole entry.
  return statements > 0 && code.split(`'${CLIENT_ENTRY}'`).length + code.split(`"${CLIENT_ENTRY}"`).length - 2 === statements
}

/**
 * In a build, MetaBlog's entries resolve to the site bundle. A theme that takes only `enhanceApp`
 * from `metablog/client` (a custom Layout's one line) gets `enhanceApp`'s module alone: Rollup then
 * never loads or bundles the components it does not show (PageBacklinks, KnowledgeGraph and its worker).
 */
export function siteBundlePlugin(): Plugin {
  return {
    name: 'metablog:site-bundle',
    apply: 'build',
    // Before Vite's resolver, which would resolve the entries to the compiled modules.
    enforce: 'pre',
    resolveId(source, importer) {
      if (source === THEME_ENTRY) return clientModule('theme', 'build')
      if (source !== CLIENT_ENTRY) return undefined
      const code = importer ? this.getModuleInfo(importer)?.code : undefined
      let lean = false
      try {
        lean = !!code && importsOnlyEnhanceApp(code, (text) => this.parse(text) as unknown as { body: Node[] })
      } catch {
        // Code Rollup cannot parse keeps the whole entry.
      }
      return clientModule(lean ? 'enhance-app' : 'client', 'build')
    },
  }
}
