import { createRequire } from 'node:module'
import path from 'node:path'
import { readFile } from 'node:fs/promises'
import { pathToFileURL } from 'node:url'
import { hardenEngineTable, type EngineTable, type YamlParse } from '../../server/front-matter-engines.js'

interface BundledMatter {
  (input: string, options?: unknown): unknown
  engines: EngineTable
  clearCache?: () => void
}

/**
 * VitePress bundles its own gray-matter and calls it without options for included pages, content
 * loaders and the sitemap, where no config reaches; its shared engine table is the one place that
 * covers them all. Found through the module VitePress's own entry imports it from, checked by shape.
 */
export async function findBundledMatter(fromDir = process.cwd()): Promise<BundledMatter | null> {
  const require = createRequire(path.join(fromDir, 'noop.js'))
  const entry = path.join(path.dirname(require.resolve('vitepress/package.json')), 'dist/node/index.js')
  const source = await readFile(entry, 'utf8')
  for (const statement of source.matchAll(/import\s*\{([^}]*)\}\s*from\s*'\.\/([\w.-]+\.js)'/g)) {
    const local = /(\w+)\s+as\s+matter\b/.exec(statement[1]!)
    if (!local) continue
    const chunk = (await import(pathToFileURL(path.join(path.dirname(entry), statement[2]!)).href)) as Record<string, unknown>
    const candidate = chunk[local[1]!] as BundledMatter | undefined
    if (typeof candidate === 'function' && candidate.engines && typeof candidate.engines === 'object' && 'yaml' in candidate.engines) return candidate
  }
  return null
}

/** Hardens the gray-matter VitePress bundles and answers its (now bounded) YAML parser; null when it could not be found. */
export async function hardenBundledMatter(fromDir?: string): Promise<YamlParse | null> {
  const bundled = await findBundledMatter(fromDir).catch(() => null)
  if (!bundled) return null
  hardenEngineTable(bundled.engines)
  // Pages parsed before this call may sit in gray-matter's cache.
  bundled.clearCache?.()
  const yaml = bundled.engines.yaml!
  return typeof yaml === 'function' ? yaml : yaml.parse.bind(yaml)
}
