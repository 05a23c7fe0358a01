// The dev API loads its routes on first need (plugin/dev-api-loader.ts): an edit made in the editor
// before any page asked for the API still reaches the index and the pages. A file of its own: a
// second dev server in one test process gets no watcher events.
import fs from 'node:fs/promises'
import path from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { startDevServer, type DevServer } from '../helpers/dev-server.js'
import { until } from '../helpers/runtime.js'

let dev: DevServer | undefined

afterAll(async () => {
  await dev?.close()
})

describe('the dev API before its first request', () => {
  it('takes an edit made in the editor before any page asked for the API into the index and tells the pages', async () => {
    dev = await startDevServer({ env: { METABLOG_TEST_NO_PREBUNDLE: '1' } })
    const hmr = await dev.listen()
    // Chokidar reports files written after its first scan; the API has not been asked for meanwhile.
    const watcher = dev.server.watcher as unknown as { _readyEmitted?: boolean; once(event: 'ready', listener: () => void): void }
    if (!watcher._readyEmitted) await new Promise<void>((resolve) => watcher.once('ready', resolve))
    try {
      await fs.writeFile(path.join(dev.root, 'early.md'), '# Written early\n\nSee [[index]].\n')
      // The watcher may report the file before its text is in: the page's events end with its title.
      const changed = await hmr.waitFor((event) => event.event === 'metablog:file-changed' && event.data.path === 'early.md' && event.data.title === 'Written early', 15_000)
      expect(changed.data.hash).not.toBeNull()
      expect(hmr.events.find((event) => event.event === 'metablog:file-changed' && event.data.path === 'early.md')?.data.kind).toBe('created')
      const graph = await until(async () => {
        const answer = (await dev!.api('/graph')).json as { edges: { source: string; target: string }[] }
        return answer.edges.some((edge) => edge.source === 'early.md') ? answer : null
      })
      expect(graph.edges).toContainEqual(expect.objectContaining({ source: 'early.md', target: 'index.md' }))
    } finally {
      hmr.close()
    }
  })
})
