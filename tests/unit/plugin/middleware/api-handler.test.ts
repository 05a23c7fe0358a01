import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterEach, describe, expect, it } from 'vitest'
import { createRoute, type ApiMiddleware, type ApiRequest } from '../../../../plugin/middleware/api-handler.js'

let close: (() => Promise<void>) | null = null

afterEach(async () => {
  await close?.()
  close = null
})

/** The middlewares in a chain on a plain server, as connect runs them; whatever none answers is a 404. */
async function serve(middlewares: ApiMiddleware[]): Promise<string> {
  const server = http.createServer((request, response) => {
    const next = (index: number): void => {
      const middleware = middlewares[index]
      if (!middleware) return void response.writeHead(404).end()
      void middleware(request, response, () => next(index + 1))
    }
    next(0)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  close = () => new Promise((resolve) => server.close(() => resolve()))
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`
}

describe('createRoute', () => {
  it('parses a request URL once for every route it passes, and again once a middleware rewrites it', async () => {
    const seen: URL[] = []
    const parsed = new Set<URL>()
    const watch: ApiMiddleware = (request: ApiRequest, _response, next) => {
      if (request.parsedUrl) parsed.add(request.parsedUrl.url)
      next()
    }
    const rewrite: ApiMiddleware = (request, _response, next) => {
      if (request.url === '/old?q=1') request.url = '/new?q=2'
      next()
    }
    const url = await serve([
      createRoute(/^\/first$/, { GET: async () => ({ body: 'first' }) }),
      watch,
      createRoute(/^\/second$/, { GET: async () => ({ body: 'second' }) }),
      watch,
      rewrite,
      createRoute(/^\/new$/, { GET: async (_request, parsedUrl) => (seen.push(parsedUrl), { body: parsedUrl.searchParams.get('q') }) }),
      watch,
      createRoute(/^\/third$/, { GET: async (_request, parsedUrl) => (seen.push(parsedUrl), { body: parsedUrl.searchParams.get('q') }) }),
    ])
    expect(await (await fetch(`${url}/third?q=3`)).json()).toBe('3')
    // One URL object from the first route to the one that answered.
    expect(parsed.size).toBe(1)
    expect(seen[0]).toBe([...parsed][0])
    parsed.clear()
    expect(await (await fetch(`${url}/old?q=1`)).json()).toBe('2')
    expect(seen[1]!.pathname).toBe('/new')
    expect(parsed.size).toBe(1)
    expect((await fetch(`${url}/elsewhere`)).status).toBe(404)
  })

  it('answers 405 with Allow for a method the route does not know', async () => {
    const url = await serve([createRoute(/^\/only-get$/, { GET: async () => ({ body: 'ok' }) })])
    const response = await fetch(`${url}/only-get`, { method: 'DELETE' })
    expect(response.status).toBe(405)
    expect(response.headers.get('allow')).toBe('GET')
    expect((await response.json()).error.code).toBe('ERR_METHOD')
  })
})
