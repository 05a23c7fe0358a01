import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterEach, describe, expect, it } from 'vitest'
import { createDevApiLoader, type DevApi } from '../../../plugin/dev-api-loader.js'
import { gateMiddleware } from '../../../plugin/middleware/gate.js'
import type { ApiMiddleware } from '../../../plugin/middleware/api-handler.js'
import { API_PREFIX, TOKEN_HEADER } from '../../../plugin/protocol.js'
import { createRequestGuard } from '../../../server/request-guard.js'
import { sendJson } from '../../../server/http.js'

const TOKEN = 'a'.repeat(43)
let close: (() => Promise<void>) | null = null

afterEach(async () => {
  await close?.()
  close = null
})

/** A route module whose loading the test finishes (or fails) when it wants. */
function deferredApi() {
  let finish!: (api: DevApi) => void
  let fail!: (error: Error) => void
  const loaded = new Promise<DevApi>((resolve, reject) => {
    finish = resolve
    fail = reject
  })
  let loads = 0
  return {
    create: () => (loads++, loaded),
    finish,
    fail,
    get loads() {
      return loads
    },
  }
}

/** The gate, then the loader's middleware, under the API prefix of a plain server, as the dev server mounts them. */
async function serve(loader: ReturnType<typeof createDevApiLoader>): Promise<string> {
  const gate = gateMiddleware({ checkRequest: createRequestGuard({ token: TOKEN }), bodyLimit: 1024 })
  const server = http.createServer((request, response) => {
    if (!request.url?.startsWith(`${API_PREFIX}/`)) return void response.writeHead(404).end()
    request.url = request.url.slice(API_PREFIX.length)
    const fallThrough = (error?: unknown) => void response.writeHead(error ? 500 : 404).end(error ? 'unhandled' : 'fell through')
    void gate(request, response, (error) => (error ? fallThrough(error) : loader.middleware(request, response, fallThrough)))
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  close = () => new Promise((resolve) => server.close(() => resolve()))
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}${API_PREFIX}`
}

const echoRoute = (name: string): ApiMiddleware =>
  function echo(request, response, next) {
    if (!request.url?.startsWith(`/${name}`)) return next()
    sendJson(response, 200, { route: name, body: (request as { body?: unknown }).body ?? null })
  }

describe('createDevApiLoader', () => {
  it('refuses a request without the token while the routes are still loading, and never loads them for it', async () => {
    const routes = deferredApi()
    const base = await serve(createDevApiLoader(routes.create, () => {}))
    const response = await fetch(`${base}/pages`)
    expect(response.status).toBe(403)
    expect((await response.json()).error.code).toBe('ERR_TOKEN')
    expect(routes.loads).toBe(0)
  })

  it('holds requests that passed the gate until the routes load, then answers each from its own route', async () => {
    const routes = deferredApi()
    const base = await serve(createDevApiLoader(routes.create, () => {}))
    const headers = { [TOKEN_HEADER]: TOKEN, 'content-type': 'application/json' }
    const first = fetch(`${base}/pages`, { headers })
    const second = fetch(`${base}/files`, { method: 'PUT', headers, body: JSON.stringify({ path: 'a.md' }) })
    const third = fetch(`${base}/nothing`, { headers })
    while (routes.loads === 0) await new Promise((resolve) => setTimeout(resolve, 10))
    // The others arrive while the first is waiting for the load; give them a moment, then finish it.
    await new Promise((resolve) => setTimeout(resolve, 100))
    expect(routes.loads).toBe(1)
    const notFound: ApiMiddleware = (_request, response) => sendJson(response, 404, { error: { code: 'ERR_NOT_FOUND', message: 'no route' } })
    routes.finish({ routes: [echoRoute('pages'), echoRoute('files'), notFound], fileEvent() {} })
    expect(await (await first).json()).toEqual({ route: 'pages', body: null })
    expect(await (await second).json()).toEqual({ route: 'files', body: { path: 'a.md' } })
    expect((await third).status).toBe(404)
    // Loaded once: later requests go straight to the routes.
    expect(await (await fetch(`${base}/pages`, { headers })).json()).toEqual({ route: 'pages', body: null })
    expect(routes.loads).toBe(1)
  })

  it('answers 500 ERR_INTERNAL and logs why when the routes cannot load', async () => {
    const routes = deferredApi()
    const logged: string[] = []
    const base = await serve(createDevApiLoader(routes.create, (message) => logged.push(message)))
    const answer = fetch(`${base}/pages`, { headers: { [TOKEN_HEADER]: TOKEN } })
    while (routes.loads === 0) await new Promise((resolve) => setTimeout(resolve, 10))
    routes.fail(new Error('openai is missing'))
    const response = await answer
    expect(response.status).toBe(500)
    const body = await response.json()
    expect(body.error.code).toBe('ERR_INTERNAL')
    expect(body.error.message).toContain('openai is missing')
    expect(logged.join('\n')).toContain('openai is missing')
  })

  it('passes a route error on, and a route that throws, to the next error handler', async () => {
    const loader = createDevApiLoader(
      async () => ({
        routes: [
          (request, _response, next) => (request.url?.startsWith('/throws') ? (() => { throw new Error('boom') })() : next()),
          async (request, _response, next) => (request.url?.startsWith('/rejects') ? Promise.reject(new Error('late boom')) : next()),
        ],
        fileEvent() {},
      }),
      () => {},
    )
    const base = await serve(loader)
    const headers = { [TOKEN_HEADER]: TOKEN }
    expect(await (await fetch(`${base}/throws`, { headers })).text()).toBe('unhandled')
    expect(await (await fetch(`${base}/rejects`, { headers })).text()).toBe('unhandled')
    expect(await (await fetch(`${base}/other`, { headers })).text()).toBe('fell through')
  })

  it('keeps file events from before the load and hands them over in order, then passes new ones straight on', async () => {
    const routes = deferredApi()
    const loader = createDevApiLoader(routes.create, () => {})
    const received: string[] = []
    loader.fileEvent('add', '/site/a.md')
    loader.fileEvent('change', '/site/a.md')
    // The first event starts the load: an edit reaches the index even if no page ever asks the API.
    expect(routes.loads).toBe(1)
    routes.finish({ routes: [], fileEvent: (event, file) => received.push(`${event} ${file}`) })
    await loader.load()
    expect(received).toEqual(['add /site/a.md', 'change /site/a.md'])
    loader.fileEvent('unlink', '/site/a.md')
    expect(received).toEqual(['add /site/a.md', 'change /site/a.md', 'unlink /site/a.md'])
  })
})
