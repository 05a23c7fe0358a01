// Helpers for the dev-server benches: the generated blog written twice (plain VitePress and with MetaBlog),
// `vitepress dev` in a process of its own, a post's first paint in Chromium, and the resident memory of the server's process tree.
import { spawn, type ChildProcess } from 'node:child_process'
import type { Browser, Page } from 'playwright-core'
import fs from 'node:fs'
import net from 'node:net'
import path from 'node:path'
import { freePort } from '../helpers/dev-server-process.js'
import { makeTempDir, REPO_ROOT } from '../helpers/dev-server.js'
import type { SyntheticPage } from './knowledge-synthetic-blog.js'

const VITEPRESS_BIN = path.join(REPO_ROOT, 'node_modules/vitepress/bin/vitepress.js')

const PLAIN_CONFIG = `import { defineConfig } from 'vitepress'
export default defineConfig({ title: 'Scale', cleanUrls: true })
`
const METABLOG_CONFIG = `import { defineConfig } from 'vitepress'
import { withMetaBlog } from 'metablog'
export default withMetaBlog(defineConfig({ title: 'Scale', cleanUrls: true }), {})
`
const METABLOG_THEME = `import MetaBlogTheme from 'metablog/theme'
export default MetaBlogTheme
`

/** Writes the pages under a temp site inside the repo (so `metablog` resolves by self-reference, as in the demo). */
export async function writeSite(kind: 'plain' | 'metablog', pages: SyntheticPage[]): Promise<string> {
  const root = await makeTempDir(`devscale-${kind}`)
  const folders = new Set(pages.map((page) => path.dirname(path.join(root, page.path))))
  for (const folder of folders) fs.mkdirSync(folder, { recursive: true })
  for (const page of pages) fs.writeFileSync(path.join(root, page.path), page.content)
  // No theme folder at all for plain VitePress: an empty one would make it look for a custom theme.
  fs.mkdirSync(path.join(root, kind === 'plain' ? '.vitepress' : '.vitepress/theme'), { recursive: true })
  fs.writeFileSync(path.join(root, '.vitepress/config.ts'), kind === 'plain' ? PLAIN_CONFIG : METABLOG_CONFIG)
  if (kind === 'metablog') fs.writeFileSync(path.join(root, '.vitepress/theme/index.ts'), METABLOG_THEME)
  return root
}

export interface RunningServer {
  origin: string
  /** Date.now() when the process was spawned. */
  spawnedAt: number
  child: ChildProcess
  output: () => string
  stop: () => Promise<void>
}

function portOpen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1')
    socket.once('connect', () => (socket.destroy(), resolve(true)))
    socket.once('error', () => resolve(false))
  })
}

/**
 * Spawns `vitepress dev` and resolves once its port accepts connections (the server has listened).
 * `traceGc` has V8 print each garbage collection (one short line each), for `idleRss`.
 */
export async function startServer(root: string, timeoutMs: number, options: { traceGc?: boolean } = {}): Promise<RunningServer> {
  const port = await freePort()
  const spawnedAt = Date.now()
  const flags = options.traceGc ? ['--trace-gc'] : []
  const child = spawn(process.execPath, [...flags, VITEPRESS_BIN, 'dev', root, '--host', '127.0.0.1', '--port', String(port), '--strictPort'], {
    cwd: REPO_ROOT,
    env: { ...process.env, OPENAI_API_KEY: '', OPENAI_BASE_URL: '' },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let output = ''
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk))
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk))
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return
    const exited = new Promise((resolve) => child.once('exit', resolve))
    child.kill('SIGTERM')
    const timer = setTimeout(() => child.kill('SIGKILL'), 5000)
    await exited
    clearTimeout(timer)
  }
  while (!(await portOpen(port))) {
    if (child.exitCode !== null || Date.now() - spawnedAt > timeoutMs) {
      await stop()
      throw new Error(`vitepress dev for ${root} did not listen within ${timeoutMs} ms:\n${output}`)
    }
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
  return { origin: `http://127.0.0.1:${port}`, spawnedAt, child, output: () => output, stop }
}

function statusField(pid: number, field: string): number {
  try {
    const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8')
    const match = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)
    return match ? Number(match[1]) * 1024 : 0
  } catch {
    return 0
  }
}

function descendants(pid: number): number[] {
  const found: number[] = []
  let tasks: string[] = []
  try {
    tasks = fs.readdirSync(`/proc/${pid}/task`)
  } catch {
    return found
  }
  for (const task of tasks) {
    let children = ''
    try {
      children = fs.readFileSync(`/proc/${pid}/task/${task}/children`, 'utf8')
    } catch {
      continue
    }
    for (const child of children.split(/\s+/).filter(Boolean).map(Number)) found.push(child, ...descendants(child))
  }
  return found
}

/** Resident memory of a process and every process under it (Vite's esbuild service among them), in bytes. */
export function treeRss(pid: number): number {
  return [pid, ...descendants(pid)].reduce((sum, each) => sum + statusField(each, 'VmRSS'), 0)
}

// `--trace-gc` lines: "[pid:0xisolate]   40718 ms: Mark-Compact (reduce) 285.6 (332.4) -> …". The main
// isolate prints first; workers have isolates of their own.
const GC_LINE = /^\[\d+:(0x[0-9a-f]+)\]\s+\d+ ms: (.*)$/gm
const REDUCING = /^Mark-Compact \(reduce\)/

/**
 * The resident memory of the server's process tree once V8 has given back what the server no longer
 * uses: V8 collects with its memory reducer when a process has been idle a while (8 s at the
 * earliest, often 20–40 s), and returns the pages freed. Waits, from `from` (an offset into the
 * server's output), for the main isolate's first such collection and for the ones it runs right after
 * to end; at most `timeoutMs`. The server must run with `traceGc`.
 */
export async function idleRss(server: RunningServer, from: number, timeoutMs: number): Promise<{ rss: number; waitedMs: number; reduced: boolean }> {
  const started = Date.now()
  let seen = 0
  let lastSeenAt = 0
  while (Date.now() - started < timeoutMs) {
    const lines = [...server.output().matchAll(GC_LINE)]
    const main = lines[0]?.[1]
    const reductions = lines.filter((line) => line.index! >= from && line[1] === main && REDUCING.test(line[2]!)).length
    if (reductions > seen) [seen, lastSeenAt] = [reductions, Date.now()]
    if (seen > 0 && Date.now() - lastSeenAt >= 2_000) return { rss: treeRss(server.child.pid!), waitedMs: Date.now() - started, reduced: true }
    await new Promise((resolve) => setTimeout(resolve, 250))
  }
  return { rss: treeRss(server.child.pid!), waitedMs: Date.now() - started, reduced: false }
}

/** The highest resident memory the process itself reached, in bytes. */
export function peakRss(pid: number): number {
  return statusField(pid, 'VmHWM')
}

/** Opens the post as soon as the server listens; the first contentful paint, counted from the spawn. */
export async function firstPaint(browser: Browser, server: RunningServer, route: string, timeoutMs = 240_000): Promise<{ page: Page; paintMs: number }> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } })
  // tsx keeps function names with a helper the page does not have.
  await context.addInitScript('globalThis.__name = (target) => target')
  const page = await context.newPage()
  await page.goto(`${server.origin}${route}`, { waitUntil: 'load', timeout: timeoutMs })
  await page.waitForFunction(() => performance.getEntriesByName('first-contentful-paint').length > 0, undefined, { timeout: timeoutMs })
  const paintedAt = await page.evaluate(() => performance.timeOrigin + performance.getEntriesByName('first-contentful-paint')[0]!.startTime)
  await page.waitForSelector('.VPDoc h1', { timeout: timeoutMs })
  return { page, paintMs: paintedAt - server.spawnedAt }
}
