// Dev-server start of the demo blog with and without MetaBlog, measured alternately in one run:
// from createServer() to the first page's HTML.
import fs from 'node:fs/promises'
import path from 'node:path'
import { performance } from 'node:perf_hooks'
import type { AddressInfo } from 'node:net'
import { createServer } from 'vitepress'
import { copySite, REPO_ROOT } from '../helpers/dev-server.js'

const ROUNDS = 7
const TARGET_RATIO = 1.2

const PLAIN_CONFIG = `import { defineConfig } from 'vitepress'
import config from './metablog.config'
// The same site, as VitePress alone would serve it.
export default defineConfig(config)
`

/** A copy of the demo blog with MetaBlog removed: its config without withMetaBlog, the default theme. */
async function plainCopy(): Promise<string> {
  const root = await copySite(path.join(REPO_ROOT, 'docs'))
  const configFile = path.join(root, '.vitepress/config.ts')
  const source = await fs.readFile(configFile, 'utf8')
  const unwrapped = source
    .replace("import { withMetaBlog } from 'metablog'\n", '')
    .replace('export default withMetaBlog(', 'export default (')
    .replace(/\),\s*\{\s*\},?\s*\)\s*$/, '))\n')
  await fs.writeFile(path.join(root, '.vitepress/metablog.config.ts'), unwrapped.replace("import { defineConfig } from 'vitepress'\n", "import { defineConfig } from 'vitepress'\n"))
  await fs.writeFile(configFile, PLAIN_CONFIG)
  await fs.writeFile(path.join(root, '.vitepress/theme/index.ts'), "import DefaultTheme from 'vitepress/theme'\nexport default DefaultTheme\n")
  return root
}

async function startOnce(root: string): Promise<number> {
  const started = performance.now()
  const server = await createServer(root, { host: '127.0.0.1', port: 0 })
  await server.listen()
  const { port } = server.httpServer!.address() as AddressInfo
  const response = await fetch(`http://127.0.0.1:${port}/posts/atomic-file-writes`)
  await response.text()
  const elapsed = performance.now() - started
  if (!response.ok) throw new Error(`the page answered ${response.status}`)
  // Let the dependency scan settle so closing does not cancel it midway.
  await new Promise((resolve) => setTimeout(resolve, 300))
  await Promise.race([server.close(), new Promise((resolve) => setTimeout(resolve, 5000))])
  return elapsed
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!

export async function run(): Promise<void> {
  const withMetaBlog = await copySite(path.join(REPO_ROOT, 'docs'))
  const without = await plainCopy()
  try {
    // One untimed start each fills the dependency caches, as an author's second start would find them.
    await startOnce(withMetaBlog)
    await startOnce(without)
    const times = { with: [] as number[], without: [] as number[] }
    for (let round = 0; round < ROUNDS; round++) {
      times.without.push(await startOnce(without))
      times.with.push(await startOnce(withMetaBlog))
    }
    const ratio = median(times.with) / median(times.without)
    console.log(`dev-server start to first page, median of ${ROUNDS} alternating runs`)
    console.log(`  without MetaBlog  ${median(times.without).toFixed(0)} ms   (${times.without.map((time) => time.toFixed(0)).join(', ')})`)
    console.log(`  with MetaBlog     ${median(times.with).toFixed(0)} ms   (${times.with.map((time) => time.toFixed(0)).join(', ')})`)
    console.log(`  ratio             ${ratio.toFixed(2)}×   target ≤ ${TARGET_RATIO}×  ${ratio <= TARGET_RATIO ? 'PASS' : 'FAIL'}`)
  } finally {
    await fs.rm(withMetaBlog, { recursive: true, force: true })
    await fs.rm(without, { recursive: true, force: true })
  }
}
