// The demo blog's dev server started as its author starts it, with and without MetaBlog, alternately:
// `vitepress dev` spawned in a process of its own, Chromium opening a post the moment the port is open,
// and the time from the spawn to that post's first contentful paint.
//
// It used to call createServer() in this process and time the page's HTML shell. That measured neither
// MetaBlog nor what the author waits for: after the first (untimed) start, Node's module cache held
// MetaBlog's code, so no later start paid for loading it; each closed server's unfinished work (the
// dependency optimizer, "The build was canceled") ran on in the same process; and the HTML shell comes
// long before the page shows. (The plain copy keeps the demo's local search: VitePress renders every
// page for its index before that server listens, which MetaBlog's live search replaces with an index
// built when a search box first asks. That is what this blog costs without MetaBlog.)
import fs from 'node:fs/promises'
import path from 'node:path'
import { copySite, REPO_ROOT } from '../helpers/dev-server.js'
import { launchBrowser } from '../helpers/browser.js'
import { firstPaint, startServer } from './dev-scale-servers.js'

const ROUNDS = 5
const TARGET_RATIO = 1.2
const ROUTE = '/posts/atomic-file-writes'
const START_TIMEOUT_MS = 60_000

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
  if (unwrapped.includes('withMetaBlog')) throw new Error('the demo config changed shape: could not remove withMetaBlog for the plain copy')
  await fs.writeFile(path.join(root, '.vitepress/metablog.config.ts'), unwrapped)
  await fs.writeFile(configFile, PLAIN_CONFIG)
  await fs.writeFile(path.join(root, '.vitepress/theme/index.ts'), "import DefaultTheme from 'vitepress/theme'\nexport default DefaultTheme\n")
  return root
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!

export async function run(): Promise<void> {
  const roots = { with: await copySite(path.join(REPO_ROOT, 'docs')), without: await plainCopy() }
  const browser = await launchBrowser()
  /** One start: spawn, paint, stop. */
  const paintOnce = async (root: string): Promise<number> => {
    const server = await startServer(root, START_TIMEOUT_MS)
    try {
      const { page, paintMs } = await firstPaint(browser, server, ROUTE, START_TIMEOUT_MS)
      await page.context().close()
      return paintMs
    } finally {
      await server.stop()
    }
  }
  try {
    // One untimed start each fills the dependency caches, as an author's second start would find them.
    await paintOnce(roots.with)
    await paintOnce(roots.without)
    const times = { with: [] as number[], without: [] as number[] }
    for (let round = 0; round < ROUNDS; round++) {
      times.without.push(await paintOnce(roots.without))
      times.with.push(await paintOnce(roots.with))
    }
    const ratio = median(times.with) / median(times.without)
    const list = (values: number[]) => values.map((time) => time.toFixed(0)).join(', ')
    console.log(`demo blog: \`vitepress dev\` spawned to the first paint of ${ROUTE} in Chromium, median of ${ROUNDS} alternating runs`)
    console.log(`  without MetaBlog  ${median(times.without).toFixed(0)} ms   (${list(times.without)})`)
    console.log(`  with MetaBlog     ${median(times.with).toFixed(0)} ms   (${list(times.with)})`)
    console.log(`  ratio             ${ratio.toFixed(2)}×   target ≤ ${TARGET_RATIO}×  ${ratio <= TARGET_RATIO ? 'PASS' : 'FAIL'}`)
  } finally {
    await browser.close()
    await fs.rm(roots.with, { recursive: true, force: true })
    await fs.rm(roots.without, { recursive: true, force: true })
  }
}
