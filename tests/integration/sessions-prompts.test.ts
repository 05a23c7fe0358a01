import fs from 'node:fs/promises'
import path from 'node:path'
import type { SiteConfig } from 'vitepress'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { API_PREFIX } from '../../plugin/protocol.js'
import { startDevServer, type DevServer } from '../helpers/dev-server.js'

let dev: DevServer
let hmr: Awaited<ReturnType<DevServer['listen']>>

beforeAll(async () => {
  dev = await startDevServer()
  hmr = await dev.listen()
})

afterAll(async () => {
  hmr?.close()
  await dev?.close()
})

const at = (minute: number) => `2026-11-25T08:${String(minute).padStart(2, '0')}:00.000Z`
const promptsFolder = () => path.join(dev.root, '.vitepress/metablog/prompts')
/** Resolves once the file watcher finished its first scan: files made before that raise no events. */
function watcherReady(): Promise<void> {
  const watcher = dev.server.watcher as unknown as { _readyEmitted?: boolean; once(event: 'ready', listener: () => void): void }
  return watcher._readyEmitted ? Promise.resolve() : new Promise((resolve) => watcher.once('ready', resolve))
}
const sawEvent = (name: string, since: number, timeoutMs = 15_000) =>
  hmr.waitFor((event) => event.event === name && hmr.events.indexOf(event) >= since, timeoutMs)
/** The prompts event that names `file`, after `since`. */
const sawPromptsEvent = (file: string, since: number) =>
  hmr.waitFor((event) => event.event === 'metablog:prompts-updated' && hmr.events.indexOf(event) >= since && (event.data.files as string[]).includes(file), 15_000)

describe('session logs on the real dev server', () => {
  it('appends, lists and reads a conversation, in the cache folder, as JSONL', async () => {
    const first = await dev.api('/sessions/conv-1/entries', {
      method: 'POST',
      json: { entries: [{ v: 1, at: at(1), type: 'user', text: '  Compare this with the guide  ', currentFile: 'index.md' }] },
    })
    expect(first.status).toBe(200)
    expect(first.json).toMatchObject({ id: 'conv-1', appended: 1 })
    const second = await dev.api('/sessions/conv-1/entries', {
      method: 'POST',
      json: {
        entries: [
          { v: 1, at: at(2), type: 'assistant', text: 'They differ in…', model: 'fake-model' },
          { v: 1, at: at(2), type: 'usage', promptTokens: 900, completionTokens: 40, cost: 0.002, model: 'fake-model' },
        ],
      },
    })
    expect(second.json.appended).toBe(2)
    await dev.api('/sessions/conv-0/entries', { method: 'POST', json: { entries: [{ v: 1, at: at(0), type: 'user', text: 'older' }] } })

    const listed = await dev.api('/sessions')
    expect(listed.status).toBe(200)
    expect(listed.json.sessions).toEqual([
      { id: 'conv-1', title: 'Compare this with the guide', createdAt: at(1), updatedAt: at(2), entries: 3, cost: 0.002 },
      { id: 'conv-0', title: 'older', createdAt: at(0), updatedAt: at(0), entries: 1, cost: 0 },
    ])
    const read = await dev.api('/sessions/conv-1')
    expect(read.json).toMatchObject({ id: 'conv-1', skipped: 0 })
    expect(read.json.entries.map((entry: { type: string }) => entry.type)).toEqual(['user', 'assistant', 'usage'])
    const file = await fs.readFile(path.join(dev.root, '.vitepress/cache/metablog/sessions/conv-1.jsonl'), 'utf8')
    expect(file.trimEnd().split('\n').map((line) => JSON.parse(line).type)).toEqual(['user', 'assistant', 'usage'])
  })

  it('skips a torn line with a count, and refuses bad ids, bad entries and unknown sessions with codes', async () => {
    await fs.appendFile(path.join(dev.root, '.vitepress/cache/metablog/sessions/conv-0.jsonl'), '{"v":1,"at":"2026-')
    const read = await dev.api('/sessions/conv-0')
    expect(read.status).toBe(200)
    expect(read.json).toMatchObject({ entries: [{ text: 'older' }], skipped: 1 })

    const badEntry = await dev.api('/sessions/conv-2/entries', { method: 'POST', json: { entries: [{ v: 1, at: at(3), type: 'user' }] } })
    expect(badEntry.status).toBe(400)
    expect(badEntry.json.error).toMatchObject({ code: 'ERR_BAD_REQUEST', message: expect.stringMatching(/entries\[0\] \(user\): "text"/) })
    expect((await dev.api('/sessions/conv-2')).status).toBe(404)
    expect((await dev.api('/sessions/conv-2')).json.error.code).toBe('ERR_NOT_FOUND')
    const badId = await dev.api('/sessions/..%2Fescape/entries', { method: 'POST', json: { entries: [{ v: 1, at: at(3), type: 'user', text: 'x' }] } })
    expect(badId.status).toBe(400)
    expect(badId.json.error.code).toBe('ERR_BAD_REQUEST')
    const tooBig = await dev.api('/sessions/conv-2/entries', { method: 'POST', json: { entries: [{ v: 1, at: at(3), type: 'user', text: 'x'.repeat(2.5 * 1024 * 1024) }] } })
    expect(tooBig.status).toBe(413)
    expect(tooBig.json.error.code).toBe('ERR_TOO_LARGE')
    const wrongMethod = await dev.api('/sessions', { method: 'DELETE' })
    expect(wrongMethod.status).toBe(405)
  })

  it('keeps every new route behind the token', async () => {
    const routes: [string, string][] = [
      ['GET', '/sessions'],
      ['GET', '/sessions/conv-1'],
      ['DELETE', '/sessions/conv-1'],
      ['POST', '/sessions/conv-1/entries'],
      ['GET', '/prompts'],
    ]
    for (const [method, route] of routes) {
      const body = method === 'POST' ? JSON.stringify({ entries: [{ v: 1, at: at(9), type: 'user', text: 'intruder' }] }) : undefined
      const response = await fetch(`${dev.origin}${API_PREFIX}${route}`, { method, body, headers: body ? { 'content-type': 'application/json' } : {} })
      expect(response.status, `${method} ${route}`).toBe(403)
      expect(((await response.json()) as { error: { code: string } }).error.code).toBe('ERR_TOKEN')
    }
    expect((await dev.api('/sessions/conv-1')).json.entries).toHaveLength(3)
  })

  it('still lists and reads the conversation after the dev server restarts over the same folder', async () => {
    hmr.close()
    await dev.server.close()
    const restarted = await startDevServer({ root: dev.root })
    dev = restarted
    hmr = await dev.listen()
    const listed = await dev.api('/sessions')
    expect(listed.json.sessions.map((session: { id: string }) => session.id)).toEqual(['conv-1', 'conv-0'])
    expect((await dev.api('/sessions/conv-1')).json.entries[0]).toMatchObject({ type: 'user', currentFile: 'index.md' })
    const deleted = await dev.api('/sessions/conv-0', { method: 'DELETE' })
    expect(deleted.json).toEqual({ id: 'conv-0', deleted: true })
    expect((await dev.api('/sessions')).json.sessions.map((session: { id: string }) => session.id)).toEqual(['conv-1'])
  })
})

describe('prompt files on the real dev server', () => {
  it('serves an empty list when the site has no prompts folder', async () => {
    expect((await dev.api('/prompts')).json).toEqual({ prompts: [], problems: [] })
  })

  it('picks up a prompt file added while the server runs, with an event, and never makes it a page', async () => {
    await watcherReady()
    const since = hmr.events.length
    await fs.mkdir(promptsFolder(), { recursive: true })
    await fs.writeFile(
      path.join(promptsFolder(), 'tldr.md'),
      '---\ncommand: tldr\ndescription: Three bullets\nmode: plan\ntools: [read_page]\n---\nSummarize {{page}}. {{input}}\n',
    )
    const event = await sawEvent('metablog:prompts-updated', since)
    expect(event.data).toEqual({ files: ['tldr.md'] })
    expect((await dev.api('/prompts')).json).toEqual({
      prompts: [{ command: 'tldr', description: 'Three bullets', mode: 'plan', tools: ['read_page'], template: 'Summarize {{page}}. {{input}}', file: 'tldr.md' }],
      problems: [],
    })
    const site = (dev.server.config as { vitepress?: SiteConfig }).vitepress!
    expect(site.pages.some((page) => page.includes('metablog'))).toBe(false)
    expect((await dev.api('/pages')).json.pages.some((page: { path: string }) => page.path.includes('metablog'))).toBe(false)
  })

  it('reports a bad file next to the good ones, reloads a changed one, and drops a removed one', async () => {
    let since = hmr.events.length
    const tldr = path.join(promptsFolder(), 'tldr.md')
    await fs.writeFile(tldr, (await fs.readFile(tldr, 'utf8')).replace('Three bullets', 'Two bullets'))
    await sawPromptsEvent('tldr.md', since)
    expect((await dev.api('/prompts')).json.prompts[0].description).toBe('Two bullets')
    since = hmr.events.length
    await fs.writeFile(path.join(promptsFolder(), 'broken.md'), '---\ncommand: tldr\ndescription: again\ntools: [format_disk]\n---\nx\n')
    // The event that names it: a late one for the rewrite above may come first.
    await sawPromptsEvent('broken.md', since)
    const listed = (await dev.api('/prompts')).json
    expect(listed.prompts.map((prompt: { command: string }) => prompt.command)).toEqual(['tldr'])
    expect(listed.problems).toEqual([{ file: 'broken.md', message: expect.stringMatching(/unknown tool "format_disk"/) }])

    since = hmr.events.length
    await fs.rm(path.join(promptsFolder(), 'tldr.md'))
    await sawPromptsEvent('tldr.md', since)
    await expect.poll(async () => (await dev.api('/prompts')).json.prompts, { timeout: 10_000 }).toEqual([])
  })
})
