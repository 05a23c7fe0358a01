// The trust boundary end to end: every hostile payload, answered by the model through every skill
// that writes, then the pages rendered by the real dev server in Chromium and the whole site built.
// An attack that works sets `window.pwn_…`, opens a dialog, requests a `pwn_…` URL, writes a marker
// file from Node, or pulls the site's `.env` canary into a page.
import { spawn } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import fs from 'node:fs/promises'
import path from 'node:path'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Skill } from '../../client/runtime/types.js'
import { editSkill, summarizeSkill, writeSkill } from '../../client/skills/index.js'
import { startFakeLlm, type FakeLlm } from '../fixtures/fake-llm-server.js'
import { BROWSER_RUN, VUE_RUN } from '../fixtures/hostile/effects.js'
import { hostileClasses, instantiate } from '../fixtures/hostile/index.js'
import { launchBrowser, screenshot, warmUpDevServer } from '../helpers/browser.js'
import { copySite, makeTempDir, REPO_ROOT } from '../helpers/dev-server.js'
import { freePort, startDevServerProcess, type DevServerProcess } from '../helpers/dev-server-process.js'
import { OUTLINE, createTestRuntime, fakeModelEnv, until } from '../helpers/runtime.js'

const CANARY = `sk-canary-${randomBytes(12).toString('hex')}`
// HOSTILE_IDS=a,b runs only those payloads (to study one locally); CI runs them all.
const only = process.env.HOSTILE_IDS?.split(',')
const payloads = hostileClasses
  .flatMap((group) => group.payloads.map((payload) => ({ ...payload, className: group.name })))
  .filter((payload) => !only || only.includes(payload.id))

interface Written {
  marker: string
  vector: string
  path: string
}

let fake: FakeLlm
let dev: DevServerProcess
let root: string
let markDir: string
let browser: Browser
const written: Written[] = []
const refused: { marker: string; code: string }[] = []
const unchanged: string[] = []

async function markersWritten(): Promise<string[]> {
  return (await fs.readdir(markDir)).filter((name) => name.startsWith('pwn_'))
}

function api(route: string, init: { method?: string; json?: unknown; headers?: Record<string, string> } = {}) {
  return fetch(`${dev.origin}/__metablog/api${route}`, {
    method: init.method ?? 'GET',
    headers: { 'X-MetaBlog-Token': dev.token, ...(init.json ? { 'Content-Type': 'application/json' } : {}), ...init.headers },
    body: init.json ? JSON.stringify(init.json) : undefined,
  })
}

beforeAll(async () => {
  if (!only) expect(payloads.length).toBeGreaterThanOrEqual(60)
  fake = await startFakeLlm()
  root = await copySite()
  markDir = await makeTempDir('marks')
  // Where the README tells authors to put their key: no page may ever show it.
  await fs.writeFile(path.join(root, '.env'), `OPENAI_API_KEY=${CANARY}\n`)
  // Controls, written as an author would (no guard): they must trip the detectors, or a pass proves nothing.
  await fs.mkdir(path.join(root, 'control'))
  await fs.writeFile(path.join(root, 'control/browser.md'), instantiate(`# Control\n\n<img src="https://marker.invalid/control.png" onerror="${BROWSER_RUN}">\n`, { marker: 'control_browser', markDir }))
  await fs.writeFile(path.join(root, 'control/build.md'), instantiate(`# Control\n\n{{ ${VUE_RUN} }}\n`, { marker: 'control_build', markDir }))
  dev = await startDevServerProcess({ root, port: await freePort(), env: fakeModelEnv(fake) })
  browser = await launchBrowser()
  await warmUpDevServer(browser, dev.origin, root)
}, 120_000)

afterAll(async () => {
  await browser?.close()
  await dev?.kill()
  await fake?.close()
  if (root) await fs.rm(root, { recursive: true, force: true })
  if (markDir) await fs.rm(markDir, { recursive: true, force: true })
})

/** Runs one request on a fresh runtime (auto-apply: no approval waits) and records what became of it. */
async function runSkill(marker: string, vector: string, skills: readonly Skill[], text: string, context: { currentFile?: string; selectedText?: string } = {}) {
  const { runtime, state } = createTestRuntime({ origin: dev.origin, token: dev.token }, { skills, approvalMode: 'auto-edit' })
  const record = await runtime.processInput(text, context)
  const saved = runtime.logger.entries().filter((entry) => entry.event === 'agent.file.saved').at(-1) as { path?: string } | undefined
  if (record?.outcome === 'COMPLETED') {
    // A summary of a page with no sentence in it saves nothing: there is nothing to check.
    if (saved?.path) written.push({ marker, vector, path: saved.path })
    else unchanged.push(marker)
    return
  }
  const error = state.messages.find((message) => message.kind === 'error')
  // A task may only fail because the guard refused the model's text, and then says so.
  expect(error?.kind === 'error' && error.code, `${marker}: ${record?.outcome} ${JSON.stringify(state.messages.at(-1))}`).toBe('ERR_UNSAFE_CONTENT')
  refused.push({ marker, code: 'ERR_UNSAFE_CONTENT' })
}

describe('every hostile payload through every skill that writes', () => {
  it('stores each page inert or refuses the write with a clear error', async () => {
    for (const payload of payloads) {
      const text = (vector: string) => instantiate(payload.text, { marker: `pwn_${vector}_${payload.id}`, markDir })

      // A whole page, as a tool that creates pages sends it.
      const created = await api('/files', { method: 'PUT', json: { path: `api/${payload.id}.md`, content: text('api') }, headers: { 'If-None-Match': '*' } })
      if (created.ok) written.push({ marker: `pwn_api_${payload.id}`, vector: 'api', path: `api/${payload.id}.md` })
      else {
        const body = (await created.json()) as { error: { code: string; message: string } }
        expect(body.error.code, `api ${payload.id}: ${body.error.message}`).toBe('ERR_UNSAFE_CONTENT')
        expect(body.error.message).toMatch(/line \d+/)
        refused.push({ marker: `pwn_api_${payload.id}`, code: body.error.code })
      }

      // The write skill: the payload is the post's body, and its description.
      const description = JSON.stringify(text('details').replace(/\s+/g, ' ').slice(0, 300))
      fake.enqueue(OUTLINE, { text: [`# Hostile ${payload.id}\n\n`, text('write'), '\n'] }, { text: [`{"tags": ["hostile"], "description": ${description}}`] })
      await runSkill(`pwn_write_${payload.id}`, 'write', [writeSkill], `write a post about hostile ${payload.id.replace(/_/g, ' ')}`)
      fake.reset()

      // The edit skill rewrites a selection with the payload; summarize saves it as the description.
      const page = `edit/${payload.id}.md`
      await fs.mkdir(path.join(root, 'edit'), { recursive: true })
      await fs.writeFile(path.join(root, page), `---\ntitle: Edit ${payload.id}\n---\n\n# Edit ${payload.id}\n\nThe author wrote this. Rewrite me please. The end.\n`)
      fake.setDefault({ text: [text('edit')] })
      await runSkill(`pwn_edit_${payload.id}`, 'edit', [editSkill], 'rewrite this', { currentFile: page, selectedText: 'Rewrite me please.' })
      fake.setDefault({ text: [text('summary')] })
      await runSkill(`pwn_summary_${payload.id}`, 'summary', [summarizeSkill], 'summarize this post and save it as the description', { currentFile: page })
      fake.reset()
    }
    expect(written.length + refused.length + unchanged.length).toBe(payloads.length * 4)
    const count = (vector: string) =>
      `${vector}: ${written.filter((entry) => entry.vector === vector).length} stored inert, ${refused.filter((entry) => entry.marker.startsWith(`pwn_${vector}_`)).length} refused, ${unchanged.filter((marker) => marker.startsWith(`pwn_${vector}_`)).length} nothing to save`
    console.log(`hostile corpus: ${payloads.length} payloads in ${hostileClasses.length} classes\n${['api', 'write', 'edit', 'summary'].map(count).join('\n')}`)
    expect(await markersWritten()).toEqual([])
  }, 600_000)
})

interface Visited {
  markers: string[]
  notFound: boolean
  canary: boolean
}

/** Opens a page as the author would and reports what ran on it. */
async function visit(page: Page, route: string): Promise<Visited> {
  // Network idle: images that fail and scripts that fetch have had their turn before we look.
  await page.goto(`${dev.origin}${route}`, { waitUntil: 'networkidle' })
  await page.locator('.VPContent').waitFor({ timeout: 30_000 })
  return page.evaluate((canary) => ({
    markers: Object.keys(window).filter((key) => key.startsWith('pwn_') || key.startsWith('control_')),
    notFound: document.querySelector('.NotFound') !== null,
    canary: document.documentElement.outerHTML.includes(canary),
  }), CANARY)
}

describe('the written pages in Chromium', () => {
  it('run nothing: no marker, no dialog, no marker request, no canary', async () => {
    const hits: string[] = []
    const tabs = await Promise.all([1, 2, 3].map(() => browser.newPage()))
    for (const tab of tabs) {
      tab.on('dialog', (dialog) => {
        hits.push(`dialog: ${dialog.message()}`)
        void dialog.dismiss()
      })
      tab.on('request', (request) => {
        if (request.url().includes('pwn_')) hits.push(`request: ${request.url()}`)
      })
    }
    expect((await visit(tabs[0]!, '/control/browser')).markers).toEqual(['control_browser'])

    const queue = [...new Set(written.map((entry) => entry.path))]
    expect(queue.length).toBeGreaterThan(0)
    // Three tabs at a time: the dev server compiles one page while Chromium runs another.
    await Promise.all(
      tabs.map(async (tab) => {
        for (let file = queue.shift(); file; file = queue.shift()) {
          const seen = await visit(tab, `/${file.replace(/\.md$/, '')}`)
          expect(seen.notFound, `${file} did not render`).toBe(false)
          expect(seen.markers, file).toEqual([])
          expect(seen.canary, `${file} shows the .env key`).toBe(false)
        }
      }),
    )
    expect(hits).toEqual([])
    expect(await markersWritten()).toEqual([])
    await Promise.all(tabs.map((tab) => tab.close()))
  }, 900_000)
})

describe('hostile page titles and text in the assistant panel', () => {
  it('show as text in the delete card and in the graph report', async () => {
    // One page per class, titled with its first payload on one line and holding that payload whole.
    const samples = hostileClasses.map((group) => group.payloads[0]!)
    await fs.mkdir(path.join(root, 'titles'), { recursive: true })
    for (const payload of samples) {
      const text = instantiate(payload.text, { marker: `pwn_panel_${payload.id}`, markDir })
      const title = text.replace(/\s+/g, ' ').trim().slice(0, 200)
      await fs.writeFile(path.join(root, `titles/${payload.id}.md`), `---\ntitle: ${JSON.stringify(title)}\n---\n\n${text}\n`)
    }
    await fs.writeFile(path.join(root, 'titles/index.md'), `# Hub\n\n${samples.map((payload) => `- [[titles/${payload.id}]]`).join('\n')}\n`)

    await until(async () => {
      const graph = (await (await api('/graph')).json()) as { edges: { source: string }[] }
      return graph.edges.filter((edge) => edge.source === 'titles/index.md').length === samples.length
    }, 30_000, 'the hub and its links in the graph')

    const page = await browser.newPage()
    const hits: string[] = []
    page.on('dialog', (dialog) => {
      hits.push(`dialog: ${dialog.message()}`)
      void dialog.dismiss()
    })
    page.on('request', (request) => {
      if (request.url().includes('pwn_')) hits.push(`request: ${request.url()}`)
    })
    const markers = () => page.evaluate(() => Object.keys(window).filter((key) => key.startsWith('pwn_')))
    // The hub renders every hostile title as a wiki-link label.
    await page.goto(`${dev.origin}/titles/`, { waitUntil: 'networkidle' })
    await page.getByRole('button', { name: 'Open MetaBlog assistant' }).click()
    const input = page.getByRole('textbox', { name: 'Message MetaBlog' })
    // A request is taken once the previous task has finished: Stop is gone then.
    const ask = async (text: string) => {
      await page.getByRole('button', { name: 'Stop' }).waitFor({ state: 'hidden' })
      await input.fill(text)
      await input.press('Enter')
      await page.getByText(text, { exact: true }).waitFor()
    }

    await ask('update the knowledge graph')
    await page.getByText(`It links to ${samples.length} pages`).waitFor({ timeout: 30_000 })
    try {
      for (const payload of samples.slice(0, 6)) {
        await ask(`delete titles/${payload.id}.md`)
        const card = page.getByTestId('metablog-approval').filter({ hasText: `titles/${payload.id}.md` })
        await card.getByRole('button', { name: 'Reject' }).click()
        await card.and(page.locator('[data-status=rejected]')).waitFor()
      }
      await page.waitForLoadState('networkidle')
      await screenshot(page, 'hostile-titles-panel')
      expect(await markers()).toEqual([])
      expect(hits).toEqual([])
      expect(await markersWritten()).toEqual([])
    } catch (error) {
      await screenshot(page, 'hostile-titles-panel-failed')
      throw error
    } finally {
      await page.close()
      // These pages hold the payloads as an author would have written them: they are not the build's to test.
      await fs.rm(path.join(root, 'titles'), { recursive: true })
    }
  }, 300_000)
})

describe('vitepress build of the site with every written page', () => {
  it('runs no code in Node and ships no .env content', async () => {
    await dev.kill()
    const output = await new Promise<string>((resolve, reject) => {
      const child = spawn(process.execPath, [path.join(REPO_ROOT, 'node_modules/vitepress/bin/vitepress.js'), 'build', root], { cwd: REPO_ROOT, stdio: ['ignore', 'pipe', 'pipe'] })
      let log = ''
      child.stdout.on('data', (chunk: Buffer) => (log += chunk))
      child.stderr.on('data', (chunk: Buffer) => (log += chunk))
      child.on('error', reject)
      child.on('exit', (code) => (code === 0 ? resolve(log) : reject(new Error(`vitepress build exited ${code}:\n${log.slice(-4000)}`))))
    })
    expect(output).toMatch(/build complete/i)
    expect(await markersWritten()).toEqual([])
    // The author's own control page did run in Node: the detector works.
    expect(await fs.readdir(markDir)).toContain('control_build')
    const dist = path.join(root, '.vitepress/dist')
    const files = (await fs.readdir(dist, { recursive: true })).filter((file) => /\.(html|js|json)$/.test(file))
    for (const file of files) {
      const body = await fs.readFile(path.join(dist, file), 'utf8')
      expect(body.includes(CANARY), `${file} carries the .env key`).toBe(false)
    }
  }, 600_000)
})
