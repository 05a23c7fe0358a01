import fs from 'node:fs/promises'
import http from 'node:http'
import net from 'node:net'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { API_PREFIX, TOKEN_HEADER } from '../../plugin/protocol.js'
import { startDevServer, type DevServer } from '../helpers/dev-server.js'
import { snapshotTree } from '../helpers/tree.js'

let dev: DevServer
let outside: string
let before: { site: Record<string, string>; outside: Record<string, string> }

beforeAll(async () => {
  dev = await startDevServer()
  outside = `${dev.root}-outside`
  await fs.mkdir(outside, { recursive: true })
  await fs.writeFile(path.join(outside, 'secret.md'), 'secret\n')
  await fs.symlink(outside, path.join(dev.root, 'escape'))
  // Dangling symlinks: a write through them would create the target outside the site.
  await fs.symlink(`../${path.basename(outside)}/pwned.md`, path.join(dev.root, 'dangling.md'))
  await fs.symlink(`../${path.basename(outside)}/not-yet`, path.join(dev.root, 'future'))
  before = { site: await snapshotTree(dev.root), outside: await snapshotTree(outside) }
})

afterAll(async () => {
  await dev?.close()
  await fs.rm(outside, { recursive: true, force: true })
})

async function expectNothingChanged() {
  expect(await snapshotTree(dev.root)).toEqual(before.site)
  expect(await snapshotTree(outside)).toEqual(before.outside)
  await expect(fs.access(path.join(dev.root, '..', 'pwned.md'))).rejects.toThrow()
}

/** A raw request, so Host and other headers are exactly what a hostile client would send. */
function rawRequest(options: { method?: string; path: string; headers: Record<string, string | number>; body?: string | Buffer }) {
  return new Promise<{ status: number; json: any }>((resolve, reject) => {
    const request = http.request(
      { host: '127.0.0.1', port: dev.port, method: options.method ?? 'GET', path: options.path, headers: options.headers },
      (response) => {
        const chunks: Buffer[] = []
        response.on('data', (chunk: Buffer) => chunks.push(chunk))
        response.on('end', () => resolve({ status: response.statusCode!, json: JSON.parse(Buffer.concat(chunks).toString() || 'null') }))
      },
    )
    request.on('error', reject)
    request.end(options.body)
  })
}

const HOSTILE_PATHS = [
  '../pwned.md',
  '../../etc/passwd.md',
  'guide/../../pwned.md',
  '%2e%2e/pwned.md',
  '%252e%252e%252fpwned.md',
  '..%2fpwned.md',
  '/etc/passwd.md',
  '/tmp/pwned.md',
  'guide\\..\\..\\pwned.md',
  'C:/Windows/pwned.md',
  'C:\\pwned.md',
  'pwned.md\u0000.txt',
  'guide/pwned\u0000.md',
  '.vitepress/config.md',
  '.vitepress/theme/index.md',
  'node_modules/pwned.md',
  '.git/pwned.md',
  'guide/.hidden/pwned.md',
  'index.js',
  'guide/page.html',
  'index.md.',
  'guide./pwned.md',
  'escape/secret.md',
  'escape/new-page.md',
  'dangling.md',
  'future/pwned.md',
  './index.md',
  'guide//pwned.md',
  '',
  'file:///etc/passwd.md',
  `${'a'.repeat(600)}.md`,
  '.md',
  'index.MD',
  'guide/ pwned.md',
  // Windows 8.3 short names: on Windows they stand for node_modules, .vitepress or another page.
  'NODE_M~1/pwned.md',
  'VITEPR~1/config.md',
  'guide/PWNED~1.md',
  'node_m~1/pkg/readme.md',
]

// A lone surrogate cannot travel in a URL (it has no UTF-8 form), only in a JSON body; the file
// system would store it as U+FFFD, so it would be a second name, with its own lock, for one file.
const SURROGATE_PATHS = ['guide/\ud800.md', '\udfffpwned.md', 'guide/a\ud83d.md']

describe('hostile paths', () => {
  it(`has at least 25 cases`, () => {
    expect(HOSTILE_PATHS.length).toBeGreaterThanOrEqual(25)
  })

  it.each(HOSTILE_PATHS.map((item) => [JSON.stringify(item), item]))('%s is refused by every route with 400 ERR_BAD_PATH', async (_label, hostile) => {
    const query = `?path=${encodeURIComponent(hostile)}`
    const responses = [
      await dev.api(`/files${query}`),
      await dev.api('/files', { method: 'PUT', json: { path: hostile, content: 'pwned' }, headers: { 'If-None-Match': '*' } }),
      await dev.api('/files', { method: 'PUT', json: { path: hostile, content: 'pwned' }, headers: { 'If-Match': '"x"' } }),
      await dev.api(`/files${query}`, { method: 'DELETE', headers: { 'If-Match': '"x"' } }),
      await dev.api('/locks', { method: 'POST', json: { path: hostile, taskId: 'task-1' } }),
    ]
    for (const response of responses) {
      expect(response.status).toBe(400)
      expect(response.json.error.code).toBe('ERR_BAD_PATH')
    }
    await expectNothingChanged()
  })
})

describe('hostile paths with lone surrogates', () => {
  it.each(SURROGATE_PATHS.map((item) => [JSON.stringify(item), item]))('%s is refused by every route with a JSON body with 400 ERR_BAD_PATH', async (_label, hostile) => {
    const responses = [
      await dev.api('/files', { method: 'PUT', json: { path: hostile, content: 'pwned' }, headers: { 'If-None-Match': '*' } }),
      await dev.api('/locks', { method: 'POST', json: { path: hostile, taskId: 'task-1' } }),
    ]
    for (const response of responses) {
      expect(response.status).toBe(400)
      expect(response.json.error.code).toBe('ERR_BAD_PATH')
    }
    await expectNothingChanged()
  })
})

describe('the security gate', () => {
  const create = { path: 'gate.md', content: 'should never be written' }
  const body = JSON.stringify(create)

  it('refuses a spoofed Host before anything else', async () => {
    for (const host of ['evil.example', 'localhost.evil.example', '127.0.0.1.nip.io', `evil.example:${dev.port}`]) {
      const response = await rawRequest({
        method: 'PUT',
        path: `${API_PREFIX}/files`,
        headers: { Host: host, [TOKEN_HEADER]: dev.token, 'Content-Type': 'application/json', 'If-None-Match': '*' },
        body,
      })
      expect(response.status).toBe(403)
      expect(response.json.error.code).toBe('ERR_HOST')
    }
    await expectNothingChanged()
  })

  it('accepts the local host names', async () => {
    for (const host of [`localhost:${dev.port}`, `127.0.0.1:${dev.port}`, `[::1]:${dev.port}`, `blog.localhost:${dev.port}`]) {
      const response = await rawRequest({ path: `${API_PREFIX}/pages`, headers: { Host: host, [TOKEN_HEADER]: dev.token } })
      expect(response.status).toBe(200)
    }
  })

  it('refuses a foreign Origin, even another local port', async () => {
    for (const origin of ['http://evil.example', `http://localhost:${dev.port + 1}`, 'null', `https://127.0.0.1:${dev.port}`]) {
      const response = await dev.api('/files', { method: 'PUT', json: create, headers: { Origin: origin, 'If-None-Match': '*' } })
      expect(response.status).toBe(403)
      expect(response.json.error.code).toBe('ERR_ORIGIN')
    }
    const own = await dev.api('/pages', { headers: { Origin: dev.origin } })
    expect(own.status).toBe(200)
    await expectNothingChanged()
  })

  it('refuses a missing or wrong token', async () => {
    const missing = await rawRequest({ path: `${API_PREFIX}/files?path=index.md`, headers: { Host: `127.0.0.1:${dev.port}` } })
    expect(missing).toMatchObject({ status: 403, json: { error: { code: 'ERR_TOKEN' } } })
    for (const token of ['wrong', `${dev.token}x`, dev.token.slice(0, -1), '']) {
      const response = await dev.api('/files', { method: 'PUT', json: create, headers: { [TOKEN_HEADER]: token, 'If-None-Match': '*' } })
      expect(response.status).toBe(403)
      expect(response.json.error.code).toBe('ERR_TOKEN')
    }
    await expectNothingChanged()
  })

  it('refuses a non-JSON content type, an oversized body and broken JSON', async () => {
    const plain = await dev.api('/files', { method: 'PUT', body, headers: { 'Content-Type': 'text/plain', 'If-None-Match': '*' } })
    expect(plain.status).toBe(415)
    expect(plain.json.error.code).toBe('ERR_CONTENT_TYPE')
    // A body on a method that takes none is checked all the same.
    const deleteWithBody = await dev.api('/files?path=index.md', { method: 'DELETE', body: 'x', headers: { 'Content-Type': 'text/plain', 'If-Match': '"0"' } })
    expect(deleteWithBody.status).toBe(415)
    expect(deleteWithBody.json.error.code).toBe('ERR_CONTENT_TYPE')

    const huge = await dev.api('/files', {
      method: 'PUT',
      json: { path: 'gate.md', content: 'x'.repeat(3 * 1024 * 1024) },
      headers: { 'If-None-Match': '*' },
    })
    expect(huge.status).toBe(413)
    expect(huge.json.error.code).toBe('ERR_TOO_LARGE')

    const chunked = await rawRequest({
      method: 'PUT',
      path: `${API_PREFIX}/files`,
      headers: { Host: `127.0.0.1:${dev.port}`, [TOKEN_HEADER]: dev.token, 'Content-Type': 'application/json', 'Transfer-Encoding': 'chunked', 'If-None-Match': '*' },
      body: Buffer.alloc(3 * 1024 * 1024, 32),
    })
    expect(chunked).toMatchObject({ status: 413, json: { error: { code: 'ERR_TOO_LARGE' } } })

    const broken = await dev.api('/files', { method: 'PUT', body: '{"path": "gate.md", "content": ', headers: { 'Content-Type': 'application/json', 'If-None-Match': '*' } })
    expect(broken.status).toBe(400)
    expect(broken.json.error.code).toBe('ERR_BAD_JSON')
    await expectNothingChanged()
  })

  it('checks in the contract order: host, then origin, then token', async () => {
    const all = await rawRequest({ path: `${API_PREFIX}/pages`, headers: { Host: 'evil.example', Origin: 'http://evil.example' } })
    expect(all.json.error.code).toBe('ERR_HOST')
    const originAndToken = await rawRequest({ path: `${API_PREFIX}/pages`, headers: { Host: `127.0.0.1:${dev.port}`, Origin: 'http://evil.example' } })
    expect(originAndToken.json.error.code).toBe('ERR_ORIGIN')
  })

  it('serves the token only in the dev page meta tag', async () => {
    const page = await (await fetch(`${dev.origin}/guide/getting-started`)).text()
    expect(page).toContain(`<meta name="metablog-token" content="${dev.token}">`)
    expect(dev.token.length).toBeGreaterThanOrEqual(43)
  })
})

/** Opens a raw socket, sends `first`, then waits for the server to answer and close. */
function trickle(first: string): Promise<{ text: string; elapsedMs: number; closed: boolean }> {
  return new Promise((resolve, reject) => {
    const started = performance.now()
    const socket = net.connect(dev.port, '127.0.0.1', () => socket.write(first))
    let text = ''
    socket.on('data', (chunk) => (text += chunk.toString()))
    socket.on('error', reject)
    socket.on('close', () => resolve({ text, elapsedMs: performance.now() - started, closed: true }))
    // Far past the few seconds the server may take: a hang fails here, not at the test timeout.
    setTimeout(() => {
      socket.destroy()
      resolve({ text, elapsedMs: performance.now() - started, closed: false })
    }, 15_000)
  })
}

describe('request timeouts', () => {
  // The server cuts at 5 s; a loaded machine may answer a little late, never minutes late.
  const CUT_WITHIN_MS = 9_000

  it('answers a request whose body trickles in with 408 ERR_TIMEOUT and frees the connection', async () => {
    const body = JSON.stringify({ path: 'guide/slow.md', content: 'x'.repeat(200) })
    const head =
      `PUT ${API_PREFIX}/files HTTP/1.1\r\nHost: 127.0.0.1:${dev.port}\r\n${TOKEN_HEADER}: ${dev.token}\r\n` +
      `Content-Type: application/json\r\nIf-None-Match: *\r\nContent-Length: ${body.length}\r\n\r\n`
    const result = await trickle(head + body.slice(0, body.length / 2))
    expect(result.text).toMatch(/^HTTP\/1\.1 408 /)
    expect(result.text).toContain('"ERR_TIMEOUT"')
    expect(result.closed).toBe(true)
    expect(result.elapsedMs).toBeGreaterThan(4_000)
    expect(result.elapsedMs).toBeLessThan(CUT_WITHIN_MS)
    await expectNothingChanged()
  }, 30_000)

  it('answers a request whose headers trickle in with 408 ERR_TIMEOUT and frees the connection', async () => {
    const partial = `GET ${API_PREFIX}/pages HTTP/1.1\r\nHost: 127.0.0.1:${dev.port}\r\n${TOKEN_HEADER}: ${dev.token}\r\nX-Slow: 1`
    const result = await trickle(partial)
    expect(result.text).toMatch(/^HTTP\/1\.1 408 /)
    expect(result.text).toContain('"ERR_TIMEOUT"')
    expect(result.closed).toBe(true)
    expect(result.elapsedMs).toBeLessThan(CUT_WITHIN_MS)
  }, 30_000)

  it('still serves a kept-alive connection that sends its next request after a pause', async () => {
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 })
    try {
      const get = () =>
        new Promise<number>((resolve, reject) => {
          http
            .get({ host: '127.0.0.1', port: dev.port, path: `${API_PREFIX}/pages`, agent, headers: { [TOKEN_HEADER]: dev.token } }, (response) => {
              response.resume()
              response.on('end', () => resolve(response.statusCode!))
            })
            .on('error', reject)
        })
      expect(await get()).toBe(200)
      await new Promise((resolve) => setTimeout(resolve, 1_000))
      expect(await get()).toBe(200)
    } finally {
      agent.destroy()
    }
  })
})
