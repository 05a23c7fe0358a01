import fs from 'node:fs/promises'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startDevServer, type DevServer } from '../helpers/dev-server.js'

// Long enough that a loaded machine finishes the lock tests well inside it; short enough to wait out once.
const LOCK_TTL_MS = 6000
let dev: DevServer

beforeAll(async () => {
  // Read by the fixture site's config: a short lock expiry for this suite only.
  process.env.METABLOG_TEST_LOCK_TTL_MS = String(LOCK_TTL_MS)
  dev = await startDevServer()
})

afterAll(async () => {
  await dev?.close()
})

async function readPage(page: string) {
  return (await dev.api(`/files?path=${page}`)).json as { hash: string; content: string }
}

describe('locks', () => {
  it('gives a page to one task: others get 423 with the holder, until release', async () => {
    const page = 'guide/getting-started.md'
    const lock = await dev.api('/locks', { method: 'POST', json: { path: page, taskId: 'task-a' } })
    expect(lock.status).toBe(200)
    expect(lock.json).toMatchObject({ path: page, taskId: 'task-a' })
    expect(lock.json.expiresAt).toBeGreaterThan(Date.now())

    const other = await dev.api('/locks', { method: 'POST', json: { path: page, taskId: 'task-b' } })
    expect(other.status).toBe(423)
    expect(other.json.error).toMatchObject({ code: 'ERR_LOCKED', lockedBy: 'task-a' })

    const { hash } = await readPage(page)
    const write = await dev.api('/files', { method: 'PUT', json: { path: page, content: 'by b', taskId: 'task-b' }, headers: { 'If-Match': `"${hash}"` } })
    expect(write.status).toBe(423)
    expect(write.json.error.lockedBy).toBe('task-a')
    const anonymous = await dev.api(`/files?path=${page}`, { method: 'DELETE', headers: { 'If-Match': `"${hash}"` } })
    expect(anonymous.status).toBe(423)
    expect((await readPage(page)).hash).toBe(hash)

    const own = await dev.api('/files', { method: 'PUT', json: { path: page, content: '# By A\n', taskId: 'task-a' }, headers: { 'If-Match': `"${hash}"` } })
    expect(own.status).toBe(200)

    const released = await dev.api('/locks?taskId=task-a', { method: 'DELETE' })
    expect(released.json).toEqual({ released: [page] })
    const now = await dev.api('/locks', { method: 'POST', json: { path: page, taskId: 'task-b' } })
    expect(now.status).toBe(200)
    await dev.api('/locks?taskId=task-b', { method: 'DELETE' })
  })

  it('expires a lock after its time', async () => {
    const page = 'guide/index.md'
    expect((await dev.api('/locks', { method: 'POST', json: { path: page, taskId: 'slow' } })).status).toBe(200)
    expect((await dev.api('/locks', { method: 'POST', json: { path: page, taskId: 'fast' } })).status).toBe(423)
    await new Promise((resolve) => setTimeout(resolve, LOCK_TTL_MS + 50))
    expect((await dev.api('/locks', { method: 'POST', json: { path: page, taskId: 'fast' } })).status).toBe(200)
  })

  it('refuses a bad task id', async () => {
    const response = await dev.api('/locks', { method: 'POST', json: { path: 'index.md', taskId: '../x' } })
    expect(response.status).toBe(400)
    expect(response.json.error.code).toBe('ERR_BAD_REQUEST')
  })
})

describe('checkpoints', () => {
  const checkpoint = {
    skill: 'write',
    title: 'Write a post about ETags',
    inputs: { topic: 'ETags' },
    steps: [{ id: 'outline', output: '1. Intro\n2. Body', finishedAt: 1 }],
    partial: { stepId: 'content', text: 'ETags are' },
    expectedHashes: {},
    createdPaths: ['posts/etags.md'],
    totalSteps: 5,
  }

  it('saves, lists and drops a task checkpoint in the watcher-ignored cache folder', async () => {
    expect((await dev.api('/checkpoints/task-1', { method: 'PUT', json: checkpoint })).status).toBe(200)
    const listed = await dev.api('/checkpoints')
    expect(listed.json.checkpoints).toHaveLength(1)
    expect(listed.json.checkpoints[0]).toMatchObject({ ...checkpoint, taskId: 'task-1' })
    const folder = path.join(dev.root, '.vitepress/cache/metablog/checkpoints')
    expect(await fs.readdir(folder)).toContain('task-1.json')

    expect((await dev.api('/checkpoints/task-1', { method: 'DELETE' })).status).toBe(200)
    expect((await dev.api('/checkpoints')).json.checkpoints).toEqual([])
  })

  it('moves a corrupt checkpoint aside and keeps serving', async () => {
    const folder = path.join(dev.root, '.vitepress/cache/metablog/checkpoints')
    await dev.api('/checkpoints/good', { method: 'PUT', json: checkpoint })
    await fs.writeFile(path.join(folder, 'bad.json'), '{ not json')
    const listed = await dev.api('/checkpoints')
    expect(listed.status).toBe(200)
    expect(listed.json.checkpoints.map((item: { taskId: string }) => item.taskId)).toEqual(['good'])
    expect((await fs.readdir(folder)).some((name) => name.startsWith('bad.json.corrupt-'))).toBe(true)
  })

  it('skips an unreadable entry and survives concurrent lists over a corrupt file', async () => {
    const folder = path.join(dev.root, '.vitepress/cache/metablog/checkpoints')
    await dev.api('/checkpoints/good', { method: 'PUT', json: checkpoint })
    await fs.mkdir(path.join(folder, 'folder.json'))
    await fs.writeFile(path.join(folder, 'racy.json'), '{ not json')
    const lists = await Promise.all(Array.from({ length: 6 }, () => dev.api('/checkpoints')))
    for (const listed of lists) {
      expect(listed.status).toBe(200)
      expect(listed.json.checkpoints.map((item: { taskId: string }) => item.taskId)).toEqual(['good'])
    }
    await fs.rm(path.join(folder, 'folder.json'), { recursive: true })
  })

  it('refuses a bad task id and a shapeless checkpoint', async () => {
    expect((await dev.api('/checkpoints/bad%2Fid', { method: 'PUT', json: checkpoint })).json.error.code).toBe('ERR_BAD_REQUEST')
    expect((await dev.api('/checkpoints/ok', { method: 'PUT', json: { nope: true } })).json.error.code).toBe('ERR_BAD_REQUEST')
  })

  it('appends what changed with POST, lists the two as one, and asks for the whole checkpoint when there is none', async () => {
    const record = (id: string) => ({ id, output: { text: id }, finishedAt: 2 })
    const patch = { base: { steps: 1, records: 0 }, steps: [], records: [record('turn-0'), record('tool-0-0')], partial: null, expectedHashes: { 'posts/etags.md': 'h1' } }
    const missing = await dev.api('/checkpoints/appended', { method: 'POST', json: patch })
    expect([missing.status, missing.json.error.code]).toEqual([404, 'ERR_NOT_FOUND'])
    await dev.api('/checkpoints/appended', { method: 'PUT', json: checkpoint })
    const appended = await dev.api('/checkpoints/appended', { method: 'POST', json: patch })
    expect(appended.status).toBe(200)
    expect(appended.json).toMatchObject({ taskId: 'appended', updatedAt: expect.any(Number) })
    const listed = (await dev.api('/checkpoints')).json.checkpoints.find((item: { taskId: string }) => item.taskId === 'appended')
    expect(listed).toMatchObject({ steps: checkpoint.steps, records: patch.records, expectedHashes: patch.expectedHashes, createdPaths: checkpoint.createdPaths })
    expect(listed.partial).toBeUndefined()
    expect((await dev.api('/checkpoints/appended', { method: 'POST', json: { records: [] } })).json.error.code).toBe('ERR_BAD_REQUEST')
    // The gate comes first for this route too.
    expect((await dev.api('/checkpoints/appended', { method: 'POST', json: patch, headers: { 'X-MetaBlog-Token': 'wrong' } })).status).toBe(403)
    await dev.api('/checkpoints/appended', { method: 'DELETE' })
  })
})

describe('metablog:file-changed events', () => {
  it('fires for writes through the API and for edits in the author’s own editor', async () => {
    const hmr = await dev.listen()
    try {
      const created = await dev.api('/files', { method: 'PUT', json: { path: 'guide/events.md', content: '# Events\n' }, headers: { 'If-None-Match': '*' } })
      const first = await hmr.waitFor((event) => event.event === 'metablog:file-changed' && event.data.path === 'guide/events.md')
      expect(first.data).toEqual({ path: 'guide/events.md', kind: 'created', hash: created.json.hash, title: 'Events' })

      await fs.writeFile(path.join(dev.root, 'guide/events.md'), '---\ntitle: Renamed in my editor\n---\nBody\n')
      const edited = await hmr.waitFor((event) => event.data?.title === 'Renamed in my editor')
      expect(edited.data).toMatchObject({ path: 'guide/events.md', kind: 'updated' })

      await fs.rm(path.join(dev.root, 'guide/events.md'))
      const deleted = await hmr.waitFor((event) => event.data?.path === 'guide/events.md' && event.data.kind === 'deleted')
      expect(deleted.data).toEqual({ path: 'guide/events.md', kind: 'deleted', hash: null, title: null })

      // The API write and the watcher see the same change: it is reported once.
      const reports = hmr.events.filter((event) => event.data?.path === 'guide/events.md' && event.data.kind === 'created')
      expect(reports).toHaveLength(1)
    } finally {
      hmr.close()
    }
  })
})
