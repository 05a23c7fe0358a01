import { EventEmitter } from 'node:events'
import fs from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import MiniSearch from 'minisearch'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { liveSearchPlugin } from '../../../plugin/local-search/live-search-plugin.js'
import { until } from '../../helpers/runtime.js'

let site: string
let httpServer: EventEmitter

beforeEach(async () => {
  site = await fs.mkdtemp(path.join(os.tmpdir(), 'metablog-live-search-'))
  httpServer = new EventEmitter()
})

afterEach(async () => {
  httpServer.emit('close')
  await fs.rm(site, { recursive: true, force: true })
})

/** The plugin on a one-page site, as a dev server drives it: a watcher whose events the test sends. */
async function devSearch() {
  await fs.writeFile(path.join(site, 'page.md'), '# Page\n\nThe hunting of the snark.\n')
  const plugin = liveSearchPlugin()
  const vitepress = {
    srcDir: site,
    pages: ['page.md'],
    rewrites: { map: {} },
    cleanUrls: true,
    markdown: {},
    logger: { warn: (message: string) => console.warn(message) },
    site: { base: '/', locales: {}, themeConfig: { search: { provider: 'local' } } },
  }
  ;(plugin.configResolved as (config: object) => void)({ vitepress, plugins: [] })
  const watcher = new EventEmitter()
  const updates: unknown[] = []
  const server = { watcher, httpServer, moduleGraph: { idToModuleMap: new Map(), getModuleById: () => ({ url: '/@localSearchIndex' }) }, ws: { send: (message: unknown) => updates.push(message) } }
  ;(plugin.configureServer as (server: object) => void)(server)
  const load = plugin.load as (id: string) => Promise<string>
  const search = async (query: string) => {
    const json = JSON.parse(JSON.parse(/export default (".*")$/s.exec(await load('/@localSearchIndexroot'))![1]!))
    return MiniSearch.loadJS(json, { fields: ['title', 'titles', 'text'] }).search(query).map((result) => String(result.id).split('#')[0])
  }
  return { watcher, updates, search }
}

describe('the live search index in dev', () => {
  it('indexes a page saved in place once its events settle, though its one event came while it was empty', async () => {
    const { watcher, updates, search } = await devSearch()
    expect(await search('snark')).toEqual(['/page'])
    const file = path.join(site, 'page.md')
    // The editor truncates the file; the watcher reports that, and drops the event of the write after it.
    await fs.writeFile(file, '')
    watcher.emit('change', file)
    await until(async () => (await search('snark')).length === 0, 5_000, 'the empty page indexed')
    await fs.writeFile(file, '# Page\n\nA jabberwock in the tulgey wood.\n')
    await until(async () => (await search('jabberwock')).length > 0, 5_000, 'the written page indexed')
    expect(await search('jabberwock')).toEqual(['/page'])
    // Read once more and unchanged, it tells the search boxes nothing.
    const told = updates.length
    watcher.emit('change', file)
    await new Promise((resolve) => setTimeout(resolve, 400))
    expect(updates).toHaveLength(told)
  })
})
