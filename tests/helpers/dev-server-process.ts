import { spawn, type ChildProcess } from 'node:child_process'
import path from 'node:path'
import { REPO_ROOT } from './dev-server.js'

const VITEPRESS_BIN = path.join(REPO_ROOT, 'node_modules/vitepress/bin/vitepress.js')

export interface DevServerProcess {
  origin: string
  port: number
  token: string
  child: ChildProcess
  /** SIGKILL, like a crash: no cleanup runs. */
  kill(): Promise<void>
}

async function waitForPage(origin: string, timeoutMs: number): Promise<string> {
  const started = Date.now()
  let lastError: unknown
  while (Date.now() - started < timeoutMs) {
    try {
      const response = await fetch(`${origin}/`)
      if (response.ok) return await response.text()
    } catch (error) {
      lastError = error
    }
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
  throw new Error(`the dev server at ${origin} did not answer within ${timeoutMs} ms: ${String(lastError)}`)
}

/** `vitepress dev` in its own process, as an author runs it, so a test can kill it for real. */
export async function startDevServerProcess(options: { root: string; port: number; env?: Record<string, string> }): Promise<DevServerProcess> {
  const child = spawn(process.execPath, [VITEPRESS_BIN, 'dev', options.root, '--host', '127.0.0.1', '--port', String(options.port), '--strictPort'], {
    cwd: REPO_ROOT,
    env: { ...process.env, ...options.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let output = ''
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk))
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk))
  const origin = `http://127.0.0.1:${options.port}`
  let html: string
  try {
    html = await waitForPage(origin, 30_000)
  } catch (error) {
    child.kill('SIGKILL')
    throw new Error(`${(error as Error).message}\n${output}`)
  }
  const token = /<meta name="metablog-token" content="([^"]+)"/.exec(html)?.[1]
  if (!token) throw new Error(`no metablog-token in the dev page:\n${html.slice(0, 300)}`)
  return {
    origin,
    port: options.port,
    token,
    child,
    async kill() {
      if (child.exitCode !== null || child.signalCode !== null) return
      const exited = new Promise((resolve) => child.once('exit', resolve))
      child.kill('SIGKILL')
      await exited
    },
  }
}

/** A free TCP port on 127.0.0.1. */
export async function freePort(): Promise<number> {
  const net = await import('node:net')
  return new Promise((resolve, reject) => {
    const server = net.createServer()
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number }
      server.close(() => resolve(port))
    })
  })
}
