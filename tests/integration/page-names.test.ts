// One path rule everywhere: the knowledge index, search, the graph and the watcher feed refuse
// what /files refuses, and one file has one name (and one lock) however it is spelled.
import fs from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { copySite, startDevServer, type DevServer } from '../helpers/dev-server.js'

let dev: DevServer
let outside: string

const SECRET = '---\ntitle: Secret\n---\nThe launch code is swordfish.\n'

beforeAll(async () => {
  outside = await fs.mkdtemp(path.join(os.tmpdir(), 'metablog-outside-'))
  await fs.writeFile(path.join(outside, 'secret.md'), SECRET)
  const root = await copySite()
  // In place before the server starts: the first index build walks past it too.
  await fs.symlink(outside, path.join(root, 'outside'))
  await fs.symlink('guide', path.join(root, 'alias'))
  dev = await startDevServer({ root })
})

afterAll(async () => {
  await dev?.close()
  await fs.rm(outside, { recursive: true, force: true })
})

const pages = async () => ((await dev.api('/pages')).json.pages as { path: string; title: string }[]).map((page) => `${page.path} ${page.title}`)
const graphText = async () => (await dev.api('/graph')).text
const search = async (query: string) => (await dev.api(`/search?q=${encodeURIComponent(query)}`)).json.results as { path: string; title: string; snippet: string }[]

async function expectNoSecret() {
  expect((await pages()).join('\n')).not.toMatch(/secret/i)
  expect(await graphText()).not.toMatch(/secret/i)
  expect(await search('Secret')).toEqual([])
  expect(await search('swordfish')).toEqual([])
}

async function until(check: () => Promise<boolean>, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`not true within ${timeoutMs} ms`)
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
}

describe('a symlink that leaves the site', () => {
  it('shows none of its pages in /pages, /graph or /search, and /files refuses them', async () => {
    await expectNoSecret()
    expect((await dev.api('/files?path=outside/secret.md')).json.error.code).toBe('ERR_BAD_PATH')
  })

  it('still shows none after the watcher sees its files change', async () => {
    await fs.writeFile(path.join(outside, 'secret.md'), `${SECRET}Updated: swordfish again.\n`)
    await fs.writeFile(path.join(outside, 'another.md'), '# Another secret\n\nswordfish\n')
    // A page edited in the site at the same time: once it is indexed, the watcher has had its turn.
    await fs.writeFile(path.join(dev.root, 'guide', 'control.md'), '# Control\n\nMarmots live here.\n')
    await until(async () => (await search('marmots')).length > 0, 15_000)
    await new Promise((resolve) => setTimeout(resolve, 500))
    await expectNoSecret()
    // The watcher also sees the page through the in-site symlink `alias`: still one page, one name.
    expect((await search('marmots')).map((result) => result.path)).toEqual(['guide/control.md'])
  })
})

describe('one file, one name, one lock', () => {
  const composed = 'guide/caf\u00e9.md'
  const decomposed = 'guide/cafe\u0301.md'

  it('locks a page for every spelling of its name: NFC, NFD, and through an in-site symlink', async () => {
    const created = await dev.api('/files', { method: 'PUT', json: { path: decomposed, content: '# Caf\u00e9\n' }, headers: { 'If-None-Match': '*' } })
    expect(created.status).toBe(201)
    expect(created.json.path).toBe(composed)
    const lock = await dev.api('/locks', { method: 'POST', json: { path: composed, taskId: 'task-a' } })
    expect(lock.status).toBe(200)
    for (const spelling of [decomposed, 'alias/caf\u00e9.md', 'alias/cafe\u0301.md']) {
      const other = await dev.api('/locks', { method: 'POST', json: { path: spelling, taskId: 'task-b' } })
      expect(other.status).toBe(423)
      expect(other.json.error).toMatchObject({ code: 'ERR_LOCKED', lockedBy: 'task-a' })
      const write = await dev.api('/files', { method: 'PUT', json: { path: spelling, content: 'other', taskId: 'task-b' }, headers: { 'If-Match': `"${created.json.hash}"` } })
      expect(write.status).toBe(423)
    }
    expect((await dev.api('/locks?taskId=task-a', { method: 'DELETE' })).json.released).toEqual([composed])
    expect((await pages()).filter((page) => page.startsWith('guide/caf'))).toEqual([`${composed} Caf\u00e9`])
  })
})
