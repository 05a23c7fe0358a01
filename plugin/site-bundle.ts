// Where a blog takes MetaBlog's browser code from: under `vitepress dev`, the compiled modules and .vue
// files in dist/client, which Vite serves one by one; in a build, the site bundle (dist/client/site,
// made by build/bundle-client.mjs), the same code with its components compiled, in a handful of files.
import { fileURLToPath } from 'node:url'
import type { Plugin } from './vite-types.js'

/** The site bundle's entries: a build resolves MetaBlog's browser files to these. */
type SiteEntry = 'theme' | 'client' | 'enhance-app' | 'sidebar-item' | 'knowledge-graph'

/** The files MetaBlog's plugins name themselves in dev too, as compiled in dist/client. */
const DEV_FILES = { 'sidebar-item': 'theme/sidebar-item.js', 'knowledge-graph': 'components/KnowledgeGraph.vue' } as const

const inClientDist = (file: string) => fileURLToPath(new URL(`../client/${file}`, import.meta.url))
const siteEntry = (name: SiteEntry) => inClientDist(`site/${name}.js`)

/** The sidebar item's or the graph's file, beside the compiled plugin in dist/, for the dev server or a build. */
export function clientModule(name: keyof typeof DEV_FILES, command: 'serve' | 'build'): string {
  return command === 'build' ? siteEntry(name) : inClientDist(DEV_FILES[name])
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
      if (source === THEME_ENTRY) return siteEntry('theme')
      if (source !== CLIENT_ENTRY) return undefined
      const code = importer ? this.getModuleInfo(importer)?.code : undefined
      let lean = false
      try {
        lean = !!code && importsOnlyEnhanceApp(code, (text) => this.parse(text) as unknown as { body: Node[] })
      } catch {
        // Code Rollup cannot parse keeps the whole entry.
      }
      return siteEntry(lean ? 'enhance-app' : 'client')
    },
  }
}
