import { execFileSync, spawn } from 'node:child_process'
import fs from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { TEMP_SUFFIX } from '../../../server/atomic-write.js'
import { FileStore } from '../../../server/file-store.js'
import { hashContent } from '../../../server/hash.js'
import { LockManager } from '../../../server/locks.js'

let site: string
let store: FileStore
let locks: LockManager

beforeEach(async () => {
  site = await fs.mkdtemp(path.join(os.tmpdir(), 'metablog-store-'))
  await fs.mkdir(path.join(site, 'posts'))
  await fs.writeFile(path.join(site, 'posts/hello.md'), '---\ntitle: Hello\ntags: [a, b]\n---\n# Hello\n')
  locks = new LockManager()
  store = new FileStore({ sourceDir: site, locks })
})

afterEach(async () => {
  await fs.rm(site, { recursive: true, force: true })
})

async function leftovers(folder: string): Promise<string[]> {
  const names = await fs.readdir(folder, { recursive: true })
  return names.filter((name) => name.endsWith(TEMP_SUFFIX))
}

describe('FileStore', () => {
  it('reads a page with its sha256', async () => {
    const file = await store.read('posts/hello.md')
    expect(file.hash).toBe(hashContent(file.content))
    await expect(store.read('posts/missing.md')).rejects.toMatchObject({ code: 'ERR_NOT_FOUND' })
  })

  it('creates only with If-None-Match: * and updates only with the current hash', async () => {
    await expect(store.write('posts/new.md', 'x', {})).rejects.toMatchObject({ code: 'ERR_PRECONDITION_REQUIRED' })
    const created = await store.write('posts/deep/new.md', 'one', { ifNoneMatch: '*' })
    expect(created).toMatchObject({ created: true, previousHash: null, hash: hashContent('one') })
    await expect(store.write('posts/deep/new.md', 'again', { ifNoneMatch: '*' })).rejects.toMatchObject({
      code: 'ERR_STALE',
      details: { currentHash: hashContent('one') },
    })
    await expect(store.write('posts/deep/new.md', 'two', { ifMatch: 'nope' })).rejects.toMatchObject({ code: 'ERR_STALE' })
    const updated = await store.write('posts/deep/new.md', 'two', { ifMatch: created.hash })
    expect(updated).toMatchObject({ created: false, previousHash: created.hash })
    expect(await fs.readFile(path.join(site, 'posts/deep/new.md'), 'utf8')).toBe('two')
    expect(await leftovers(site)).toEqual([])
  })

  it('refuses writes to a page locked by another task, allows the holder', async () => {
    const { hash } = await store.read('posts/hello.md')
    locks.acquire('posts/hello.md', 'task-a')
    await expect(store.write('posts/hello.md', 'b', { ifMatch: hash }, 'task-b')).rejects.toMatchObject({ code: 'ERR_LOCKED' })
    await expect(store.delete('posts/hello.md', { ifMatch: hash })).rejects.toMatchObject({ code: 'ERR_LOCKED' })
    await expect(store.write('posts/hello.md', 'a', { ifMatch: hash }, 'task-a')).resolves.toMatchObject({ created: false })
  })

  it('deletes only with the current hash', async () => {
    const { hash } = await store.read('posts/hello.md')
    await expect(store.delete('posts/hello.md', {})).rejects.toMatchObject({ code: 'ERR_PRECONDITION_REQUIRED' })
    await expect(store.delete('posts/hello.md', { ifMatch: 'old' })).rejects.toMatchObject({ code: 'ERR_STALE' })
    await store.delete('posts/hello.md', { ifMatch: hash })
    await expect(fs.access(path.join(site, 'posts/hello.md'))).rejects.toThrow()
    await expect(store.delete('posts/hello.md', { ifMatch: hash })).rejects.toMatchObject({ code: 'ERR_NOT_FOUND' })
  })

  it('lets exactly one of 50 concurrent writes with the same If-Match win', async () => {
    const { hash } = await store.read('posts/hello.md')
    const versions = Array.from({ length: 50 }, (_, index) => `version ${index}\n`.repeat(1000))
    const results = await Promise.allSettled(versions.map((content) => store.write('posts/hello.md', content, { ifMatch: hash })))
    const won = results.filter((result) => result.status === 'fulfilled')
    const stale = results.filter((result) => result.status === 'rejected' && result.reason.code === 'ERR_STALE')
    expect(won).toHaveLength(1)
    expect(stale).toHaveLength(49)
    expect(versions).toContain(await fs.readFile(path.join(site, 'posts/hello.md'), 'utf8'))
    expect(await leftovers(site)).toEqual([])
  })

  it('lists pages with titles and front-matter summary, skipping dot-folders and node_modules', async () => {
    await fs.mkdir(path.join(site, '.vitepress'))
    await fs.writeFile(path.join(site, '.vitepress/hidden.md'), '# Hidden')
    await fs.mkdir(path.join(site, 'node_modules/pkg'), { recursive: true })
    await fs.writeFile(path.join(site, 'node_modules/pkg/readme.md'), '# Dependency')
    await fs.writeFile(path.join(site, 'index.md'), 'no heading here')
    const pages = await store.listPages()
    expect(pages.map((page) => page.path)).toEqual(['index.md', 'posts/hello.md'])
    expect(pages[1]).toMatchObject({ title: 'Hello', tags: ['a', 'b'], draft: false })
  })

  it('keeps the page whole when the writer is SIGKILLed mid-write, again and again', async () => {
    const script = fileURLToPath(new URL('../../fixtures/processes/crash-writer.ts', import.meta.url))
    const { pageVersion } = await import('../../fixtures/processes/crash-writer-version.js')
    const page = path.join(site, 'posts/hello.md')
    let writesSeen = 0
    for (let round = 0; round < 8; round++) {
      const child = spawn(process.execPath, ['--import', 'tsx', script, site, 'posts/hello.md'], { stdio: ['ignore', 'pipe', 'inherit'] })
      await new Promise<void>((resolve) => {
        let lines = 0
        const target = 2 + (round % 4) * 3
        child.stdout.on('data', (chunk: Buffer) => {
          lines += chunk.toString().split('\n').filter(Boolean).length
          if (lines >= target) resolve()
        })
      })
      child.kill('SIGKILL')
      await new Promise((resolve) => child.once('exit', resolve))
      const content = await fs.readFile(page, 'utf8')
      const version = Number(/^---\nversion: (\d+)\n/.exec(content)?.[1])
      expect(content).toBe(pageVersion(version))
      writesSeen += version
    }
    expect(writesSeen).toBeGreaterThan(8)
    const cleaner = new FileStore({ sourceDir: site, locks: new LockManager() })
    await cleaner.removeStaleTempFiles(0)
    expect(await leftovers(site)).toEqual([])
  }, 60_000)

  it('gives a page reached through an in-site symlink one name, so its lock and write queue hold', async () => {
    await fs.symlink('posts', path.join(site, 'alias'))
    const { hash } = await store.read('posts/hello.md')
    locks.acquire('posts/hello.md', 'task-1')
    await expect(store.write('alias/hello.md', 'other', { ifMatch: hash }, 'task-2')).rejects.toMatchObject({ code: 'ERR_LOCKED' })
    locks.releaseTask('task-1')
    // Two writers with the same If-Match, one through each name: exactly one wins.
    const results = await Promise.allSettled([
      store.write('posts/hello.md', 'first', { ifMatch: hash }),
      store.write('alias/hello.md', 'second', { ifMatch: hash }),
    ])
    expect(results.map((result) => result.status).sort()).toEqual(['fulfilled', 'rejected'])
    expect(results.find((result) => result.status === 'fulfilled')).toMatchObject({ value: { path: 'posts/hello.md' } })
  })

  it('gives a page one name and one lock whether its accents are composed (NFC) or not (NFD), through a symlink too', async () => {
    await fs.symlink('posts', path.join(site, 'alias'))
    const composed = 'posts/caf\u00e9.md'
    const spellings = ['posts/cafe\u0301.md', 'alias/caf\u00e9.md', 'alias/cafe\u0301.md']
    // Two creates at once, one per spelling: one file, so exactly one wins and the other finds it made.
    const creates = await Promise.allSettled([store.write(composed, 'first', { ifNoneMatch: '*' }), store.write(spellings[0]!, 'second', { ifNoneMatch: '*' })])
    expect(creates.map((result) => result.status).sort()).toEqual(['fulfilled', 'rejected'])
    expect(creates.find((result) => result.status === 'rejected')).toMatchObject({ reason: { code: 'ERR_STALE' } })
    expect((await fs.readdir(path.join(site, 'posts'))).sort()).toEqual(['caf\u00e9.md', 'hello.md'])
    const { hash } = await store.read(composed)
    locks.acquire(composed, 'task-1')
    for (const spelling of spellings) {
      await expect(store.write(spelling, 'other', { ifMatch: hash }, 'task-2')).rejects.toMatchObject({ code: 'ERR_LOCKED' })
      await expect(store.read(spelling)).resolves.toMatchObject({ path: composed })
    }
  })

  it('reads and lists a page an editor saved under an NFD name by its NFC name', async () => {
    await fs.writeFile(path.join(site, 'posts', 'cre\u0300me.md'), '# Cr\u00e8me\n')
    await expect(store.read('posts/cr\u00e8me.md')).resolves.toMatchObject({ path: 'posts/cr\u00e8me.md', content: '# Cr\u00e8me\n' })
    const pages = await store.listPages()
    expect(pages.map((page) => [page.path, page.title])).toEqual([
      ['posts/cr\u00e8me.md', 'Cr\u00e8me'],
      ['posts/hello.md', 'Hello'],
    ])
  })

  it('lists no page that /files would refuse: symlinks out of the site, 8.3 names', async () => {
    const outside = await fs.mkdtemp(path.join(os.tmpdir(), 'metablog-outside-'))
    try {
      await fs.writeFile(path.join(outside, 'secret.md'), '---\ntitle: Secret\n---\n')
      await fs.symlink(outside, path.join(site, 'outside'))
      await fs.symlink(path.join(outside, 'secret.md'), path.join(site, 'posts', 'linked.md'))
      await fs.mkdir(path.join(site, 'NODE_M~1'))
      await fs.writeFile(path.join(site, 'NODE_M~1', 'short.md'), '# Short')
      await fs.writeFile(path.join(site, 'posts', 'HELLO~1.md'), '# Short page')
      expect((await store.listPages()).map((page) => page.path)).toEqual(['posts/hello.md'])
    } finally {
      await fs.rm(outside, { recursive: true, force: true })
    }
  })

  it('lists an edited page with its new hash and title, even at the same size, and forgets a deleted one', async () => {
    const file = path.join(site, 'posts/same.md')
    await fs.writeFile(file, '# Alpha\n')
    expect((await store.listPages()).find((page) => page.path === 'posts/same.md')).toMatchObject({ title: 'Alpha', hash: hashContent('# Alpha\n') })
    await fs.writeFile(file, '# Omega\n')
    expect((await store.listPages()).find((page) => page.path === 'posts/same.md')).toMatchObject({ title: 'Omega', hash: hashContent('# Omega\n') })
    await fs.rm(file)
    expect((await store.listPages()).map((page) => page.path)).toEqual(['posts/hello.md'])
  })

  it('refuses to read or write a named pipe instead of hanging', async () => {
    execFileSync('mkfifo', [path.join(site, 'posts/pipe.md')])
    await expect(store.read('posts/pipe.md')).rejects.toMatchObject({ code: 'ERR_BAD_PATH', message: expect.stringContaining('not a regular file') })
    await expect(store.write('posts/pipe.md', 'x', { ifNoneMatch: '*' })).rejects.toMatchObject({ code: 'ERR_BAD_PATH' })
    // The file threads are free: an ordinary read still answers.
    await expect(store.read('posts/hello.md')).resolves.toMatchObject({ path: 'posts/hello.md' })
  })

  it('answers ERR_BAD_PATH, naming no server folder, when a part of the path is a file', async () => {
    const error = await store.write('posts/hello.md/child.md', 'x', { ifNoneMatch: '*' }).catch((caught: unknown) => caught)
    expect(error).toMatchObject({ code: 'ERR_BAD_PATH', message: 'A part of posts/hello.md/child.md is a file, not a folder, so the page cannot be created there.' })
  })

  it('writes a page whose name is near the file-system limit (the temp file has a short name of its own)', async () => {
    const name = `posts/${'n'.repeat(197)}.md`
    await expect(store.write(name, 'long', { ifNoneMatch: '*' })).resolves.toMatchObject({ created: true })
    expect(await fs.readFile(path.join(site, name), 'utf8')).toBe('long')
    expect(await leftovers(site)).toEqual([])
  })
})
