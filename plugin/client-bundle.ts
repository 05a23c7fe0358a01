// Where a blog takes MetaBlog's browser code from: a bundle made by build/bundle-client.mjs, the code
// with its components compiled, in a handful of files. A build takes the site bundle (dist/client/site:
// what a production site shows); the dev server the dev bundle (dist/client/dev: the same and the
// writer's client, one module state for both). Module by module, some 50 files were each resolved,
// loaded and transformed, twice in a build; in dev they were a waterfall of requests the browser made
// one after another while the server was busiest, before the first paint.
import { fileURLToPath } from 'node:url'
import type { Plugin } from './vite-types.js'

/** The bundles' entries: MetaBlog's browser files resolve to these. `dev-assistant` is in the dev bundle only. */
type Entry = 'theme' | 'client' | 'enhance-app' | 'sidebar-item' | 'knowledge-graph' | 'dev-assistant'

/** An entry of the bundle for the dev server (`serve`) or a build, beside the compiled plugin in dist/. */
export function clientModule(name: Entry, command: 'serve' | 'build'): string {
  if (name === 'dev-assistant' && command === 'build') throw new Error('[metablog] a build has no writer client')
  return fileURLToPath(new URL(`../client/${command === 'build' ? 'site' : 'dev'}/${name}.js`, import.meta.url))
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
 * MetaBlog's entries resolve to the bundle: the dev bundle under `vitepress dev`, the site bundle in a
 * build. There, a theme that takes only `enhanceApp` from `metablog/client` (a custom Layout's one
 * line) gets `enhanceApp`'s module alone: Rollup then never loads or bundles the components it does
 * not show (PageBacklinks, KnowledgeGraph and its worker).
 */
export function clientBundlePlugin(): Plugin {
  let command: 'serve' | 'build' = 'serve'
  return {
    name: 'metablog:client-bundle',
    // Before Vite's resolver, which would resolve the entries to the compiled modules.
    enforce: 'pre',
    config(_config, environment) {
      command = environment.command
    },
    resolveId(source, importer) {
      if (source === THEME_ENTRY) return clientModule('theme', command)
      if (source !== CLIENT_ENTRY) return undefined
      if (command === 'serve') return clientModule('client', command)
      const code = importer ? this.getModuleInfo(importer)?.code : undefined
      let lean = false
      try {
        lean = !!code && importsOnlyEnhanceApp(code, (text) => this.parse(text) as unknown as { body: Node[] })
      } catch {
        // Code Rollup cannot parse keeps the whole entry.
      }
      return clientModule(lean ? 'enhance-app' : 'client', command)
    },
  }
}
