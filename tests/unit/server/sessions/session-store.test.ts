import fs from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { SessionEntry } from '../../../../plugin/protocol.js'
import { SessionStore } from '../../../../server/sessions/session-store.js'

let root: string
let folder: string
let warnings: string[]
let store: SessionStore

const entry = (text: string, minute = 0): SessionEntry => ({ v: 1, at: `2026-11-25T08:${String(minute).padStart(2, '0')}:00.000Z`, type: 'user', text })

beforeEach(async () => {
  root = await fs.mkdtemp(path.join(os.tmpdir(), 'metablog-sessions-'))
  folder = path.join(root, 'cache', 'metablog', 'sessions')
  warnings = []
  store = new SessionStore({ folder, maxBytes: 4096, warn: (message) => warnings.push(message) })
})

afterEach(async () => {
  await fs.rm(root, { recursive: true, force: true })
})

describe('SessionStore', () => {
  it('appends lines, reads them back, lists newest first, deletes', async () => {
    await store.append('older', [entry('first question', 1)])
    await store.append('newer', [entry('hello', 2), { v: 1, at: '2026-11-25T08:03:00.000Z', type: 'assistant', text: 'hi' }])
    await store.append('older', [entry('follow-up', 5)])
    expect(await fs.readFile(path.join(folder, 'older.jsonl'), 'utf8')).toBe(`${JSON.stringify(entry('first question', 1))}\n${JSON.stringify(entry('follow-up', 5))}\n`)
    expect(await store.read('older')).toEqual({ id: 'older', entries: [entry('first question', 1), entry('follow-up', 5)], skipped: 0 })
    const listed = await store.list()
    expect(listed.map((summary) => [summary.id, summary.title, summary.entries])).toEqual([
      ['older', 'first question', 2],
      ['newer', 'hello', 2],
    ])
    expect(await store.delete('older')).toBe(true)
    expect(await store.delete('older')).toBe(false)
    await expect(store.read('older')).rejects.toMatchObject({ code: 'ERR_NOT_FOUND' })
    expect((await store.list()).map((summary) => summary.id)).toEqual(['newer'])
  })

  it('after a torn last line, starts the next append on a line of its own and warns on read', async () => {
    await store.append('torn', [entry('before the crash')])
    await fs.appendFile(path.join(folder, 'torn.jsonl'), '{"v":1,"at":"2026-11-25T08:0')
    await store.append('torn', [entry('after the restart', 9)])
    const read = await store.read('torn')
    expect(read.entries.map((item) => (item as { text: string }).text)).toEqual(['before the crash', 'after the restart'])
    expect(read.skipped).toBe(1)
    expect(warnings).toEqual([expect.stringMatching(/conversation torn: skipped line 2: not JSON/)])
  })

  it('refuses an append that would pass the file cap with 413 ERR_TOO_LARGE and keeps the log', async () => {
    await store.append('long', [entry('x'.repeat(3000))])
    const before = await fs.readFile(path.join(folder, 'long.jsonl'), 'utf8')
    await expect(store.append('long', [entry('y'.repeat(1000))])).rejects.toMatchObject({ code: 'ERR_TOO_LARGE', message: expect.stringMatching(/start a new conversation/) })
    expect(await fs.readFile(path.join(folder, 'long.jsonl'), 'utf8')).toBe(before)
  })

  it('lists from a cache while a log keeps its size and time, and reads it again once it changes', async () => {
    const reads: string[] = []
    const counted = new SessionStore({ folder, readLog: (file) => (reads.push(path.basename(file)), fs.readFile(file, 'utf8')) })
    await counted.append('cached', [entry('original')])
    await counted.append('other', [entry('other')])
    expect((await counted.list()).map((summary) => summary.title).sort()).toEqual(['original', 'other'])
    expect((await counted.list()).map((summary) => summary.title).sort()).toEqual(['original', 'other'])
    expect(reads.sort()).toEqual(['cached.jsonl', 'other.jsonl'])
    await counted.append('cached', [entry('more', 30)])
    expect((await counted.list())[0]).toMatchObject({ id: 'cached', title: 'original', entries: 2 })
    expect(reads.sort()).toEqual(['cached.jsonl', 'cached.jsonl', 'other.jsonl'])
  })

  it('lists nothing before the folder exists, and ignores foreign files and folders', async () => {
    expect(await store.list()).toEqual([])
    await fs.mkdir(path.join(folder, 'dir.jsonl'), { recursive: true })
    await fs.writeFile(path.join(folder, 'notes.txt'), 'x')
    await fs.writeFile(path.join(folder, 'bad name.jsonl'), 'x')
    await fs.writeFile(path.join(folder, 'empty.jsonl'), '')
    expect((await store.list()).map((summary) => [summary.id, summary.entries])).toEqual([['empty', 0]])
  })

  it('refuses ids that could leave the folder', async () => {
    await expect(store.append('../escape', [entry('x')])).rejects.toMatchObject({ code: 'ERR_BAD_REQUEST' })
    await expect(store.read('a/b')).rejects.toMatchObject({ code: 'ERR_BAD_REQUEST' })
  })

  it('keeps concurrent appends to one log whole, one request per run of lines', async () => {
    const big = new SessionStore({ folder })
    await Promise.all(Array.from({ length: 20 }, (_, index) => big.append('busy', [entry(`a${index}`), entry(`b${index}`)])))
    const { entries, skipped } = await big.read('busy')
    expect(skipped).toBe(0)
    const texts = entries.map((item) => (item as { text: string }).text)
    for (let index = 0; index < texts.length; index += 2) expect(texts[index + 1]).toBe(texts[index]!.replace('a', 'b'))
  })
})
