import fs from 'node:fs/promises'
import type { AddressInfo } from 'node:net'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { createServer } from 'vitepress'
import WebSocket from 'ws'
import { API_PREFIX, TOKEN_HEADER } from '../../plugin/protocol.js'

export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..')
export const FIXTURE_SITE = path.join(REPO_ROOT, 'tests/fixtures/site')

/**
 * A temp folder inside the repo (git-ignored), so the site resolves `metablog` by
 * package self-reference exactly as the demo blog does.
 */
export async function makeTempDir(prefix: string): Promise<string> {
  const parent = path.join(REPO_ROOT, 'tests/.tmp')
  await fs.mkdir(parent, { recursive: true })
  return fs.mkdtemp(path.join(parent, `${prefix}-`))
}

export async function copySite(source = FIXTURE_SITE): Promise<string> {
  const root = await makeTempDir('site')
  await fs.cp(source, root, {
    recursive: true,
    filter: (file) => !/[\\/]\.vitepress[\\/](cache|dist)$/.test(file),
  })
  return root
}

/**
 * Resolves once Vite's dependency optimizer is idle: its cache written and no rerun in progress for
 * `quietMs`. A cold dev server's first page ends the optimizer's crawl, and its rerun may reload the
 * page a second or two later, under a test or a bench that has already moved on.
 */
export async function dependenciesSettled(root: string, { quietMs = 1500, timeoutMs = 120_000 } = {}): Promise<void> {
  const cache = path.join(root, '.vitepress/cache')
  const started = Date.now()
  let state = ''
  let quietSince = started
  while (Date.now() - quietSince < quietMs) {
    if (Date.now() - started > timeoutMs) throw new Error(`Vite's dependency optimizer for ${root} did not settle within ${timeoutMs / 1000} s (${state})`)
    const running = (await fs.readdir(cache).catch(() => [] as string[])).filter((entry) => entry.startsWith('deps_temp'))
    const written = await fs.stat(path.join(cache, 'deps/_metadata.json')).then((stat) => String(stat.mtimeMs), () => '')
    const now = `${written || 'no cache'} ${running.join(' ')}`.trim()
    if (now !== state || !written || running.length) quietSince = Date.now()
    state = now
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
}

export type DevServer = Awaited<ReturnType<typeof startDevServer>>

/**
 * Runs `action` with some process.env variables set (undefined: removed), then restores them.
 * The site config and the plugin read the environment while the server is created.
 */
export async function withEnv<T>(env: Record<string, string | undefined>, action: () => Promise<T>): Promise<T> {
  const saved = Object.fromEntries(Object.keys(env).map((key) => [key, process.env[key]]))
  const assign = (values: Record<string, string | undefined>) => {
    for (const [key, value] of Object.entries(values)) {
      if (value === undefined) delete process.env[key]
      else process.env[key] = value
    }
  }
  assign(env)
  try {
    return await action()
  } finally {
    assign(saved)
  }
}

/** Starts the real VitePress dev server over a temp copy of a site, on 127.0.0.1 and a free port. */
export async function startDevServer(options: { site?: string; root?: string; env?: Record<string, string | undefined> } = {}) {
  const root = options.root ?? (await copySite(options.site))
  const server = await withEnv(options.env ?? {}, () => createServer(root, { host: '127.0.0.1', port: 0, strictPort: false }))
  await server.listen()
  const { port } = server.httpServer!.address() as AddressInfo
  const origin = `http://127.0.0.1:${port}`
  const html = await (await fetch(`${origin}/`)).text()
  const token = /<meta name="metablog-token" content="([^"]+)"/.exec(html)?.[1]
  if (!token) throw new Error(`no metablog-token meta in the dev page:\n${html.slice(0, 500)}`)

  /** Calls the API with the page's token (and any extra headers), like the page does. */
  async function api(route: string, init: RequestInit & { json?: unknown } = {}) {
    const headers = new Headers(init.headers)
    if (!headers.has(TOKEN_HEADER)) headers.set(TOKEN_HEADER, token!)
    let body = init.body
    if (init.json !== undefined) {
      body = JSON.stringify(init.json)
      if (!headers.has('content-type')) headers.set('content-type', 'application/json')
    }
    const response = await fetch(`${origin}${API_PREFIX}${route}`, { ...init, headers, body })
    const text = await response.text()
    let json: any = null
    try {
      json = JSON.parse(text)
    } catch {
      json = null
    }
    return { status: response.status, headers: response.headers, json, text }
  }

  /** Listens on Vite's HMR websocket and collects custom events. */
  async function listen() {
    const wsToken = (server.config as { webSocketToken?: string }).webSocketToken
    const socket = new WebSocket(`ws://127.0.0.1:${port}/?token=${wsToken}`, 'vite-hmr')
    const events: { event: string; data: any }[] = []
    /** Every message, custom or not (updates, full reloads). */
    const messages: any[] = []
    socket.on('message', (raw) => {
      const message = JSON.parse(String(raw))
      messages.push(message)
      if (message.type === 'custom') events.push({ event: message.event, data: message.data })
    })
    await new Promise((resolve, reject) => {
      socket.once('open', resolve)
      socket.once('error', reject)
    })
    return {
      events,
      messages,
      async waitFor(predicate: (event: { event: string; data: any }) => boolean, timeoutMs = 5000) {
        const started = Date.now()
        while (Date.now() - started < timeoutMs) {
          const found = events.find(predicate)
          if (found) return found
          await new Promise((resolve) => setTimeout(resolve, 20))
        }
        throw new Error(`no matching HMR event within ${timeoutMs} ms; got ${JSON.stringify(events)}`)
      },
      close: () => socket.close(),
    }
  }

  return {
    root,
    origin,
    port,
    token,
    server,
    api,
    listen,
    async close() {
      await server.close()
      await fs.rm(root, { recursive: true, force: true })
    },
  }
}
