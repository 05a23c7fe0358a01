import { fileURLToPath } from 'node:url'
import type { Plugin } from './vite-types.js'

const CLIENT_ENTRY = 'metablog/client'
// `enhanceApp`'s own module, beside the compiled plugin in dist/: the client entry without the components.
const ENHANCE_APP = fileURLToPath(new URL('../client/enhance-app.js', import.meta.url))

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
 * In a build, a theme that takes only `enhanceApp` from `metablog/client` (a custom Layout's one
 * line) gets `enhanceApp`'s module alone: Rollup then never loads, compiles or bundles the
 * components it does not show (PageBacklinks, KnowledgeGraph and its worker).
 */
export function leanClientPlugin(): Plugin {
  return {
    name: 'metablog:lean-client',
    apply: 'build',
    // Before Vite's resolver, which would resolve the entry to the whole module.
    enforce: 'pre',
    resolveId(source, importer) {
      if (source !== CLIENT_ENTRY || !importer) return undefined
      const code = this.getModuleInfo(importer)?.code
      if (!code) return undefined
      try {
        return importsOnlyEnhanceApp(code, (text) => this.parse(text) as unknown as { body: Node[] }) ? ENHANCE_APP : undefined
      } catch {
        return undefined
      }
    },
  }
}
