import fs from 'node:fs/promises'
import path from 'node:path'
import type { SiteConfig } from 'vitepress'

// The component by either name a Vue template resolves to it.
const GRAPH_TAG = /<(KnowledgeGraph|knowledge-graph)[\s/>]/
const GRAPH_NAME = /\bKnowledgeGraph\b/
const SOURCE_FILE = /\.(vue|[cm]?[jt]sx?)$/

/** The blog's own code files (not node_modules, the build's output or caches), theme first. */
async function codeFiles(site: SiteConfig): Promise<string[]> {
  const skipped = new Set([site.outDir, site.cacheDir, site.tempDir].map((folder) => path.resolve(folder)))
  const found: string[] = []
  const walk = async (folder: string): Promise<void> => {
    const entries = await fs.readdir(folder, { withFileTypes: true }).catch(() => [])
    for (const entry of entries) {
      const absolute = path.join(folder, entry.name)
      if (entry.isDirectory()) {
        if (entry.name === 'node_modules' || (entry.name.startsWith('.') && entry.name !== '.vitepress') || skipped.has(absolute)) continue
        await walk(absolute)
      } else if (SOURCE_FILE.test(entry.name)) {
        found.push(absolute)
      }
    }
  }
  await walk(site.root)
  return found.sort((a, b) => Number(!a.startsWith(site.themeDir)) - Number(!b.startsWith(site.themeDir)))
}

// A build's client and server bundles resolve the same site: its files are read for the first only.
const answers = new WeakMap<SiteConfig, Promise<boolean>>()

/**
 * Whether a build can show `<KnowledgeGraph>` through `enhanceApp`'s global registration: a page or
 * any of the blog's own code names it. Stops at the first that does; when unsure (a file that
 * cannot be read), says yes. Asked once per site.
 */
export function usesKnowledgeGraph(site: SiteConfig): Promise<boolean> {
  let answer = answers.get(site)
  if (!answer) answers.set(site, (answer = findKnowledgeGraph(site)))
  return answer
}

async function findKnowledgeGraph(site: SiteConfig): Promise<boolean> {
  const check = async (file: string, pattern: RegExp) => pattern.test(await fs.readFile(file, 'utf8').catch(() => 'KnowledgeGraph <KnowledgeGraph>'))
  for (const file of await codeFiles(site)) if (await check(file, GRAPH_NAME)) return true
  const pages = site.pages.map((page) => path.join(site.srcDir, page))
  // In batches: a 10,000-page blog is read in parallel without opening every file at once.
  for (let start = 0; start < pages.length; start += 64) {
    const hits = await Promise.all(pages.slice(start, start + 64).map((file) => check(file, GRAPH_TAG)))
    if (hits.includes(true)) return true
  }
  return false
}
