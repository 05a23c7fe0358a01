import fsSync from 'node:fs'
import fs from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { TEMP_SUFFIX } from '../../../server/atomic-write.js'
import { FileStore } from '../../../server/file-store.js'
import { hashContent } from '../../../server/hash.js'
import { LockManager } from '../../../server/locks.js'

/** Runs `swap` once, inside the store's critical section, just after the path was checked. */
class SwappingLocks extends LockManager {
  swap: (() => void) | null = null
  override assertWritable(page: string, taskId: string | undefined): void {
    const swap = this.swap
    this.swap = null
    swap?.()
    super.assertWritable(page, taskId)
  }
}

let base: string
let site: string
let outside: string
let locks: SwappingLocks
let store: FileStore

beforeEach(async () => {
  base = await fs.mkdtemp(path.join(os.tmpdir(), 'metablog-integrity-'))
  site = path.join(base, 'site')
  outside = path.join(base, 'outside')
  await fs.mkdir(path.join(site, 'posts'), { recursive: true })
  await fs.mkdir(outside)
  await fs.writeFile(path.join(site, 'posts/hello.md'), '# Hello\n')
  locks = new SwappingLocks()
  store = new FileStore({ sourceDir: site, locks })
})

afterEach(async () => {
  await fs.rm(base, { recursive: true, force: true })
})

/** Replaces site/posts with a symlink to the outside folder, as an attacker racing the write would. */
function swapPostsForSymlink(): void {
  fsSync.renameSync(path.join(site, 'posts'), path.join(site, 'posts-moved'))
  fsSync.symlinkSync(outside, path.join(site, 'posts'))
}

describe('FileStore integrity', () => {
  it('refuses a write when a folder was swapped for an outside symlink after the path check', async () => {
    locks.swap = swapPostsForSymlink
    await expect(store.write('posts/new.md', 'pwned', { ifNoneMatch: '*' })).rejects.toMatchObject({ code: 'ERR_BAD_PATH' })
    expect(await fs.readdir(outside)).toEqual([])
  })

  it('refuses a delete when a folder was swapped for an outside symlink after the path check', async () => {
    await fs.writeFile(path.join(outside, 'hello.md'), 'precious\n')
    locks.swap = swapPostsForSymlink
    await expect(store.delete('posts/hello.md', { ifMatch: hashContent('precious\n') })).rejects.toMatchObject({ code: 'ERR_BAD_PATH' })
    expect(await fs.readFile(path.join(outside, 'hello.md'), 'utf8')).toBe('precious\n')
  })

  it('refuses to read or rewrite a page that is not UTF-8, and leaves it untouched', async () => {
    const latin1 = Buffer.from('# Caf\xe9\n', 'latin1')
    await fs.writeFile(path.join(site, 'posts/latin1.md'), latin1)
    const notUtf8 = { code: 'ERR_BAD_REQUEST', message: expect.stringMatching(/not UTF-8.*will not/) }
    await expect(store.read('posts/latin1.md')).rejects.toMatchObject(notUtf8)
    await expect(store.write('posts/latin1.md', 'x', { ifMatch: 'anything' })).rejects.toMatchObject(notUtf8)
    await expect(store.delete('posts/latin1.md', { ifMatch: 'anything' })).rejects.toMatchObject(notUtf8)
    expect(await fs.readFile(path.join(site, 'posts/latin1.md'))).toEqual(latin1)
    // Listing stays lenient: one such page does not hide the others.
    expect((await store.listPages()).map((page) => page.path)).toEqual(['posts/hello.md', 'posts/latin1.md'])
  })

  it('keeps a byte-order mark in the text and the hash', async () => {
    await fs.writeFile(path.join(site, 'posts/bom.md'), '\ufeff# BOM\n')
    expect((await store.read('posts/bom.md')).hash).toBe(hashContent('\ufeff# BOM\n'))
  })

  it('keeps the permission bits of a page it replaces', async () => {
    const page = path.join(site, 'posts/hello.md')
    await fs.chmod(page, 0o640)
    await store.write('posts/hello.md', '# Changed\n', { ifMatch: hashContent('# Hello\n') })
    expect((await fs.stat(page)).mode & 0o777).toBe(0o640)
  })

  it('answers a stale write to a deleted page with currentHash null', async () => {
    await expect(store.write('posts/gone.md', 'x', { ifMatch: 'old' })).rejects.toMatchObject({ code: 'ERR_STALE', details: { currentHash: null } })
  })

  it('removes only temp files old enough to be left over, never a concurrent write’s', async () => {
    const fresh = path.join(site, 'posts', `.hello.md.fresh${TEMP_SUFFIX}`)
    const old = path.join(site, 'posts', `.hello.md.old${TEMP_SUFFIX}`)
    await fs.writeFile(fresh, 'in flight')
    await fs.writeFile(old, 'left over')
    const twoMinutesAgo = new Date(Date.now() - 120_000)
    await fs.utimes(old, twoMinutesAgo, twoMinutesAgo)
    expect(await store.removeStaleTempFiles()).toBe(1)
    expect((await fs.readdir(path.join(site, 'posts'))).sort()).toEqual([path.basename(fresh), 'hello.md'])
  })
})
