import fs from 'node:fs/promises'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { API_PREFIX, TOKEN_HEADER } from '../../plugin/protocol.js'
import { launchBrowser } from '../helpers/browser.js'
import { copySite } from '../helpers/dev-server.js'
import { freePort, startDevServerProcess, type DevServerProcess } from '../helpers/dev-server-process.js'

interface ProbeResult {
  page: 'read' | 'blocked'
  token: string | null
  viteClient: 'read' | 'blocked'
  socket: 'open' | 'refused'
}

/**
 * Runs in a browser page: reads the dev page and /@vite/client as any script could, then listens on
 * the HMR websocket with whatever token it found. Events land in `window.__metablogProbe`.
 */
async function probe(devOrigin: string): Promise<ProbeResult> {
  const state = { events: [] as string[] }
  ;(window as unknown as { __metablogProbe: typeof state }).__metablogProbe = state
  const read = async (url: string) => {
    try {
      return await (await fetch(url)).text()
    } catch {
      return null
    }
  }
  const html = await read(`${devOrigin}/`)
  const client = await read(`${devOrigin}/@vite/client`)
  const wsToken = client ? (/const wsToken = "([^"]*)"/.exec(client)?.[1] ?? '') : ''
  const socket = await new Promise<'open' | 'refused'>((resolve) => {
    const ws = new WebSocket(`${devOrigin.replace('http', 'ws')}/?token=${wsToken}`, 'vite-hmr')
    ws.onmessage = (message) => state.events.push(String(message.data))
    ws.onopen = () => resolve('open')
    ws.onerror = () => resolve('refused')
  })
  return {
    page: html === null ? 'blocked' : 'read',
    token: html ? (/name="metablog-token" content="([^"]+)"/.exec(html)?.[1] ?? null) : null,
    viteClient: client === null ? 'blocked' : 'read',
    socket,
  }
}

let root: string
let dev: DevServerProcess
let other: http.Server
let otherOrigin: string
let browser: Browser
let own: Page
let foreign: Page

beforeAll(async () => {
  root = await copySite()
  await fs.mkdir(`${root}/public`)
  await fs.writeFile(`${root}/public/blank.txt`, 'blank\n')
  dev = await startDevServerProcess({ root, port: await freePort() })
  // Another local site, as any other dev server or local app on this machine would be.
  other = http.createServer((_request, response) => response.end('<!doctype html><title>Another local site</title><p>hello</p>'))
  await new Promise<void>((resolve) => other.listen(0, '127.0.0.1', resolve))
  otherOrigin = `http://127.0.0.1:${(other.address() as AddressInfo).port}`
  browser = await launchBrowser()
  own = await browser.newPage()
  foreign = await browser.newPage()
  // A plain document on the dev origin, which no hot update reloads: the control for the same probe.
  await own.goto(`${dev.origin}/blank.txt`)
  await foreign.goto(`${otherOrigin}/`)
})

afterAll(async () => {
  await browser?.close()
  await dev?.kill()
  await new Promise((resolve) => other?.close(resolve))
  await fs.rm(root, { recursive: true, force: true })
})

const eventsOf = (page: Page) => page.evaluate(() => (window as unknown as { __metablogProbe: { events: string[] } }).__metablogProbe.events)

describe('another local origin in Chromium', () => {
  it('cannot read the dev page, its token or /@vite/client, and cannot open the HMR socket', async () => {
    const result = await foreign.evaluate(probe, dev.origin)
    expect(result).toEqual({ page: 'blocked', token: null, viteClient: 'blocked', socket: 'refused' })
  })

  it('receives no metablog: event while the dev server’s own page does', async () => {
    // The same probe from the dev server's own origin is the control: it reads everything.
    expect(await own.evaluate(probe, dev.origin)).toEqual({ page: 'read', token: dev.token, viteClient: 'read', socket: 'open' })
    await foreign.evaluate(probe, dev.origin)
    const response = await fetch(`${dev.origin}${API_PREFIX}/files`, {
      method: 'PUT',
      headers: { [TOKEN_HEADER]: dev.token, 'content-type': 'application/json', 'if-none-match': '*' },
      body: JSON.stringify({ path: 'guide/cross-origin.md', content: '# Cross origin\n' }),
    })
    expect(response.status).toBe(201)
    await expect.poll(async () => (await eventsOf(own)).some((event) => event.includes('metablog:file-changed')), { timeout: 15_000 }).toBe(true)
    expect((await eventsOf(foreign)).filter((event) => event.includes('metablog:'))).toEqual([])
  })
})
