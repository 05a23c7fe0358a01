import fs from 'node:fs/promises'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import path from 'node:path'

const TYPES: Record<string, string> = { '.html': 'text/html', '.js': 'text/javascript', '.css': 'text/css', '.json': 'application/json', '.woff2': 'font/woff2' }

/** A built site as a static host serves it with clean URLs; its origin and a close. */
export async function servePreview(dist: string): Promise<{ origin: string; close: () => void }> {
  const server = http.createServer(async (request, response) => {
    const route = decodeURIComponent(new URL(request.url ?? '/', 'http://localhost').pathname)
    const candidates = route.endsWith('/') ? [`${route}index.html`] : [route, `${route}.html`]
    for (const candidate of candidates) {
      const file = path.join(dist, candidate)
      if (!file.startsWith(dist)) break
      const body = await fs.readFile(file).catch(() => null)
      if (!body) continue
      response.writeHead(200, { 'content-type': TYPES[path.extname(file)] ?? 'application/octet-stream' })
      response.end(body)
      return
    }
    response.writeHead(404).end()
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return { origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, close: () => server.close() }
}
