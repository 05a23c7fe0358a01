// The dev API loads its routes on first need (plugin/dev-api-loader.ts): the first requests after a
// start are answered as if it had always been there. (An edit before any request: dev-api-early-edit.)
import fs from 'node:fs/promises'
import path from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { API_PREFIX, TOKEN_HEADER } from '../../plugin/protocol.js'
import { TEMP_SUFFIX } from '../../server/atomic-write.js'
import { copySite, startDevServer, type DevServer } from '../helpers/dev-server.js'
import { until } from '../helpers/runtime.js'

let dev: DevServer | undefined

afterEach(async () => {
  await dev?.close()
  dev = undefined
})

describe('the dev API right after the server starts', () => {
  it('answers the first requests, all at once, each as the loaded API would, and refuses the ones without the token', async () => {
    dev = await startDevServer({ env: { METABLOG_TEST_NO_PREBUNDLE: '1' } })
    const { origin, token } = dev
    const [refused, forged, pages, status, unknown, badType] = await Promise.all([
      fetch(`${origin}${API_PREFIX}/pages`),
      fetch(`${origin}${API_PREFIX}/files?path=index.md`, { headers: { [TOKEN_HEADER]: 'x'.repeat(43) } }),
      dev.api('/pages'),
      dev.api('/llm/status'),
      dev.api('/no-such-route'),
      fetch(`${origin}${API_PREFIX}/locks`, { method: 'POST', headers: { [TOKEN_HEADER]: token, 'content-type': 'text/plain' }, body: 'hello' }),
    ])
    expect([refused.status, (await refused.json()).error.code]).toEqual([403, 'ERR_TOKEN'])
    expect([forged.status, (await forged.json()).error.code]).toEqual([403, 'ERR_TOKEN'])
    expect(pages.status).toBe(200)
    expect(pages.json.pages.map((page: { path: string }) => page.path)).toContain('index.md')
    expect(status.status).toBe(200)
    expect(status.json).toHaveProperty('configured')
    expect([unknown.status, unknown.json.error.code]).toEqual([404, 'ERR_NOT_FOUND'])
    expect([badType.status, (await badType.json()).error.code]).toEqual([415, 'ERR_CONTENT_TYPE'])
  })

  it('loads the rest of the API once the first page is out, with no API request: a write killed long ago has its temp file cleaned up', async () => {
    const root = await copySite()
    // What a write killed between write and rename leaves: the API's file store removes it once created.
    const stale = path.join(root, `.0123456789ab${TEMP_SUFFIX}`)
    await fs.writeFile(stale, 'half a page')
    const longAgo = new Date(Date.now() - 10 * 60_000)
    await fs.utimes(stale, longAgo, longAgo)
    dev = await startDevServer({ root, env: { METABLOG_TEST_NO_PREBUNDLE: '1' } })
    // The page's module, as the browser asks for it after the HTML: no request reaches the API.
    expect((await fetch(`${dev.origin}/index.md?import`)).ok).toBe(true)
    await until(async () => !(await fs.stat(stale).catch(() => null)), 20_000, 'the stale temp file to be removed')
  })
})
