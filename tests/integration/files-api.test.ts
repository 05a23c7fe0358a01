import fs from 'node:fs/promises'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { TEMP_SUFFIX } from '../../server/atomic-write.js'
import { hashContent } from '../../server/hash.js'
import { startDevServer, type DevServer } from '../helpers/dev-server.js'

let dev: DevServer

beforeAll(async () => {
  dev = await startDevServer()
})

afterAll(async () => {
  await dev?.close()
})

const json = (body: unknown, headers: Record<string, string> = {}) => ({ json: body, headers })

describe('GET /files', () => {
  it('reads a page with its hash as ETag', async () => {
    const response = await dev.api('/files?path=guide/getting-started.md')
    expect(response.status).toBe(200)
    expect(response.json.path).toBe('guide/getting-started.md')
    expect(response.json.content).toContain('# Getting Started')
    expect(response.json.hash).toBe(hashContent(response.json.content))
    expect(response.headers.get('etag')).toBe(`"${response.json.hash}"`)
  })

  it('answers 404 ERR_NOT_FOUND for a missing page and 400 without a path', async () => {
    expect((await dev.api('/files?path=guide/nope.md')).json.error.code).toBe('ERR_NOT_FOUND')
    const missing = await dev.api('/files')
    expect(missing.status).toBe(400)
    expect(missing.json.error.code).toBe('ERR_BAD_REQUEST')
  })
})

describe('PUT and DELETE /files', () => {
  it('creates with If-None-Match: *, updates with If-Match, refuses stale and unconditional writes', async () => {
    const target = path.join(dev.root, 'drafts/new-post.md')
    const bare = await dev.api('/files', { method: 'PUT', ...json({ path: 'drafts/new-post.md', content: 'x' }) })
    expect(bare.status).toBe(428)
    expect(bare.json.error.code).toBe('ERR_PRECONDITION_REQUIRED')

    const created = await dev.api('/files', { method: 'PUT', ...json({ path: 'drafts/new-post.md', content: '# New\n' }, { 'If-None-Match': '*' }) })
    expect(created.status).toBe(201)
    expect(created.json).toEqual({ path: 'drafts/new-post.md', hash: hashContent('# New\n') })
    expect(await fs.readFile(target, 'utf8')).toBe('# New\n')

    const again = await dev.api('/files', { method: 'PUT', ...json({ path: 'drafts/new-post.md', content: 'other' }, { 'If-None-Match': '*' }) })
    expect(again.status).toBe(412)
    expect(again.json.error).toMatchObject({ code: 'ERR_STALE', currentHash: created.json.hash })

    const updated = await dev.api('/files', { method: 'PUT', ...json({ path: 'drafts/new-post.md', content: '# New\n\nMore.\n' }, { 'If-Match': `"${created.json.hash}"` }) })
    expect(updated.status).toBe(200)
    expect(updated.headers.get('etag')).toBe(`"${hashContent('# New\n\nMore.\n')}"`)

    const stale = await dev.api('/files', { method: 'PUT', ...json({ path: 'drafts/new-post.md', content: 'lost?' }, { 'If-Match': `"${created.json.hash}"` }) })
    expect(stale.status).toBe(412)
    expect(stale.json.error).toMatchObject({ code: 'ERR_STALE', currentHash: updated.json.hash })
    expect(await fs.readFile(target, 'utf8')).toBe('# New\n\nMore.\n')

    const noPrecondition = await dev.api('/files?path=drafts/new-post.md', { method: 'DELETE' })
    expect(noPrecondition.status).toBe(428)
    const deleted = await dev.api('/files?path=drafts/new-post.md', { method: 'DELETE', headers: { 'If-Match': `"${updated.json.hash}"` } })
    expect(deleted.status).toBe(200)
    await expect(fs.access(target)).rejects.toThrow()
  })

  it('lets exactly one of 50 concurrent writes with the same If-Match win, leaving no temp files', async () => {
    const { json: page } = await dev.api('/files?path=guide/getting-started.md')
    const versions = Array.from({ length: 50 }, (_, index) => `# Version ${index}\n${'text '.repeat(2000)}\n`)
    const responses = await Promise.all(
      versions.map((content) =>
        dev.api('/files', { method: 'PUT', ...json({ path: 'guide/getting-started.md', content }, { 'If-Match': `"${page.hash}"` }) }),
      ),
    )
    const statuses = responses.map((response) => response.status).sort()
    expect(statuses.filter((status) => status === 200)).toHaveLength(1)
    expect(statuses.filter((status) => status === 412)).toHaveLength(49)
    const onDisk = await fs.readFile(path.join(dev.root, 'guide/getting-started.md'), 'utf8')
    expect(versions).toContain(onDisk)
    const names = await fs.readdir(path.join(dev.root, 'guide'))
    expect(names.filter((name) => name.endsWith(TEMP_SUFFIX))).toEqual([])
  })
})

describe('preconditions, validation order and task ids', () => {
  const put = (body: unknown, headers: Record<string, string>) => dev.api('/files', { method: 'PUT', ...json(body, headers) })

  it('answers 428 for any precondition other than a quoted hash or If-None-Match: *', async () => {
    const page = { path: 'guide/preconditions.md', content: 'x' }
    for (const headers of [{ 'If-None-Match': '"abc"' }, { 'If-None-Match': 'W/"abc"' }, { 'If-Match': '*' }, { 'If-Match': 'abc' }]) {
      const response = await put(page, headers)
      expect(response.status, JSON.stringify(headers)).toBe(428)
      expect(response.json.error.code).toBe('ERR_PRECONDITION_REQUIRED')
      expect(response.json.error.message).toMatch(/If-(None-)?Match/)
    }
    const deleted = await dev.api('/files?path=guide/index.md', { method: 'DELETE', headers: { 'If-Match': '*' } })
    expect(deleted.status).toBe(428)
    await expect(fs.access(path.join(dev.root, 'guide/preconditions.md'))).rejects.toThrow()
  })

  it('sends currentHash: null when the page was deleted since it was read', async () => {
    const created = await put({ path: 'guide/short-lived.md', content: '# Short\n' }, { 'If-None-Match': '*' })
    await dev.api('/files?path=guide/short-lived.md', { method: 'DELETE', headers: { 'If-Match': `"${created.json.hash}"` } })
    const stale = await put({ path: 'guide/short-lived.md', content: '# Again\n' }, { 'If-Match': `"${created.json.hash}"` })
    expect(stale.status).toBe(412)
    expect(stale.json.error.code).toBe('ERR_STALE')
    expect(stale.json.error).toHaveProperty('currentHash', null)
  })

  it('checks the path before anything else in the request', async () => {
    const badContent = await put({ path: '../pwned.md', content: 42, taskId: '../x' }, { 'If-None-Match': '"nope"' })
    expect(badContent.status).toBe(400)
    expect(badContent.json.error.code).toBe('ERR_BAD_PATH')
    const noPath = await put({ content: 'x' }, { 'If-None-Match': '*' })
    expect(noPath.json.error.code).toBe('ERR_BAD_PATH')
    const badDelete = await dev.api(`/files?path=${encodeURIComponent('../pwned.md')}&taskId=..%2Fx`, { method: 'DELETE', headers: { 'If-Match': '*' } })
    expect(badDelete.json.error.code).toBe('ERR_BAD_PATH')
  })

  it('checks the taskId of PUT and DELETE like every other route', async () => {
    const put400 = await put({ path: 'guide/task.md', content: 'x', taskId: '../evil' }, { 'If-None-Match': '*' })
    expect(put400.status).toBe(400)
    expect(put400.json.error.code).toBe('ERR_BAD_REQUEST')
    await expect(fs.access(path.join(dev.root, 'guide/task.md'))).rejects.toThrow()
    const { json: page } = await dev.api('/files?path=guide/index.md')
    const delete400 = await dev.api('/files?path=guide/index.md&taskId=bad%20id', { method: 'DELETE', headers: { 'If-Match': `"${page.hash}"` } })
    expect(delete400.status).toBe(400)
    expect(delete400.json.error.code).toBe('ERR_BAD_REQUEST')
    await fs.access(path.join(dev.root, 'guide/index.md'))
  })

  it('refuses to read a page that is not UTF-8', async () => {
    await fs.writeFile(path.join(dev.root, 'guide/latin1.md'), Buffer.from('# Caf\xe9\n', 'latin1'))
    const response = await dev.api('/files?path=guide/latin1.md')
    expect(response.status).toBe(400)
    expect(response.json.error).toMatchObject({ code: 'ERR_BAD_REQUEST', message: expect.stringContaining('not UTF-8') })
    await fs.rm(path.join(dev.root, 'guide/latin1.md'))
  })
})

describe('GET /pages', () => {
  it('lists every page with title, front-matter summary and hash', async () => {
    const { status, json: body } = await dev.api('/pages')
    expect(status).toBe(200)
    const paths = body.pages.map((page: { path: string }) => page.path)
    expect(paths).toEqual(expect.arrayContaining(['index.md', 'guide/index.md', 'guide/getting-started.md']))
    expect(paths.some((item: string) => item.startsWith('.vitepress'))).toBe(false)
    const home = body.pages.find((page: { path: string }) => page.path === 'index.md')
    expect(home).toMatchObject({ title: 'Fixture Home', draft: false, tags: [] })
    expect(home.hash).toMatch(/^[0-9a-f]{64}$/)
  })
})

describe('unknown routes', () => {
  it('answer a contract error, not the HTML fallback', async () => {
    const response = await dev.api('/nothing-here')
    expect(response.status).toBe(404)
    expect(response.json.error.code).toBe('ERR_NOT_FOUND')
    const wrongMethod = await dev.api('/pages', { method: 'DELETE' })
    expect(wrongMethod.status).toBe(405)
    expect(wrongMethod.json.error.code).toBe('ERR_METHOD')
    expect(wrongMethod.headers.get('allow')).toBe('GET')
    expect((await dev.api('/files', { method: 'POST', json: {} })).headers.get('allow')).toBe('GET, PUT, DELETE')
  })
})
