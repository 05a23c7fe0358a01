import fs from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { TEMP_SUFFIX } from '../../../server/atomic-write.js'
import { CheckpointStore } from '../../../server/checkpoint-store.js'

let folder: string
let now: number
let warnings: string[]
let store: CheckpointStore

const sample = { skill: 'write', title: 'Write about ETags', inputs: { topic: 'ETags' }, steps: [{ id: 'outline', output: '1. Intro', finishedAt: 1 }] }

beforeEach(async () => {
  folder = path.join(await fs.mkdtemp(path.join(os.tmpdir(), 'metablog-checkpoints-')), 'cache', 'checkpoints')
  now = 1_000_000
  warnings = []
  store = new CheckpointStore({ folder, now: () => now, warn: (message) => warnings.push(message) })
})

afterEach(async () => {
  await fs.rm(path.dirname(path.dirname(folder)), { recursive: true, force: true })
})

describe('CheckpointStore', () => {
  it('saves, lists newest first, and deletes', async () => {
    await store.save('task-1', sample)
    now += 10
    await store.save('task-2', { ...sample, title: 'Second' })
    const listed = await store.list()
    expect(listed.map((checkpoint) => checkpoint.taskId)).toEqual(['task-2', 'task-1'])
    expect(listed[1]).toMatchObject({ ...sample, taskId: 'task-1', updatedAt: 1_000_000 })
    expect(await store.delete('task-1')).toBe(true)
    expect(await store.delete('task-1')).toBe(false)
    expect((await store.list()).map((checkpoint) => checkpoint.taskId)).toEqual(['task-2'])
  })

  it('refuses bad task ids and shapeless checkpoints', async () => {
    await expect(store.save('../escape', sample)).rejects.toMatchObject({ code: 'ERR_BAD_REQUEST' })
    await expect(store.save('task-1', { steps: 'no' })).rejects.toMatchObject({ code: 'ERR_BAD_REQUEST' })
    await expect(fs.readdir(folder)).rejects.toThrow()
  })

  it('keeps only the last 24 hours', async () => {
    await store.save('old', sample)
    now += 24 * 60 * 60_000 + 1
    await store.save('fresh', sample)
    expect((await store.list()).map((checkpoint) => checkpoint.taskId)).toEqual(['fresh'])
    expect(await fs.readdir(folder)).toEqual(['fresh.json'])
  })

  it('moves a corrupt file aside with a warning and keeps going', async () => {
    await store.save('good', sample)
    await fs.writeFile(path.join(folder, 'broken.json'), '{"skill": "write", "steps": [')
    await fs.writeFile(path.join(folder, 'wrong.json'), '[1, 2, 3]')
    const listed = await store.list()
    expect(listed.map((checkpoint) => checkpoint.taskId)).toEqual(['good'])
    expect(warnings).toHaveLength(2)
    expect(warnings[0]).toMatch(/corrupt.*moved aside/)
    const names = (await fs.readdir(folder)).sort()
    expect(names).toEqual(['broken.json.corrupt-1000000', 'good.json', 'wrong.json.corrupt-1000000'])
  })

  it('survives concurrent lists racing over the same corrupt files', async () => {
    await store.save('good', sample)
    for (let index = 0; index < 5; index++) await fs.writeFile(path.join(folder, `broken-${index}.json`), '{')
    const lists = await Promise.all(Array.from({ length: 8 }, () => store.list()))
    for (const listed of lists) expect(listed.map((checkpoint) => checkpoint.taskId)).toEqual(['good'])
    expect(warnings).toHaveLength(5)
    expect((await fs.readdir(folder)).filter((name) => name.endsWith('.json'))).toEqual(['good.json'])
  })

  it('skips an entry it cannot read, such as a folder named x.json, with a warning', async () => {
    await store.save('good', sample)
    await fs.mkdir(path.join(folder, 'x.json'))
    expect((await store.list()).map((checkpoint) => checkpoint.taskId)).toEqual(['good'])
    expect(warnings).toEqual([expect.stringMatching(/skipped checkpoint x\.json: EISDIR/)])
  })

  it('keeps saves, deletes and lists in order', async () => {
    const done = await Promise.all([store.save('a', sample), store.delete('a'), store.list()])
    expect(done[1]).toBe(true)
    expect(done[2]).toEqual([])
  })

  it('removes only temp files old enough to be left over', async () => {
    await store.save('good', sample)
    const fresh = path.join(folder, `.good.json.fresh${TEMP_SUFFIX}`)
    const old = path.join(folder, `.good.json.old${TEMP_SUFFIX}`)
    await fs.writeFile(fresh, '{')
    await fs.writeFile(old, '{')
    const twoMinutesAgo = new Date(Date.now() - 120_000)
    await fs.utimes(old, twoMinutesAgo, twoMinutesAgo)
    expect(await store.removeStaleTempFiles()).toBe(1)
    expect((await fs.readdir(folder)).sort()).toEqual([path.basename(fresh), 'good.json'])
  })
})

describe('CheckpointStore patches', () => {
  const record = (id: string) => ({ id, output: { text: id }, finishedAt: 1 })
  const patch = (records: number, ...ids: string[]) => ({ base: { steps: 1, records }, steps: [], records: ids.map(record) })
  const only = async () => (await store.list())[0]!

  it('appends what is new to the saved checkpoint, and a list shows the two as one', async () => {
    await store.save('task-1', { ...sample, records: [record('turn-0')] })
    now += 5
    await store.append('task-1', { ...patch(1, 'tool-0-0', 'turn-1'), expectedHashes: { 'posts/a.md': 'h2' }, partial: { stepId: 'loop', text: 'Half' } })
    now += 5
    await store.append('task-1', { ...patch(3), partial: null, createdPaths: ['posts/b.md'] })
    const listed = await only()
    expect(listed.records!.map((item) => item.id)).toEqual(['turn-0', 'tool-0-0', 'turn-1'])
    expect(listed).toMatchObject({ steps: sample.steps, expectedHashes: { 'posts/a.md': 'h2' }, createdPaths: ['posts/b.md'], updatedAt: 1_000_010 })
    expect(listed.partial).toBeUndefined()
    // Appended, never rewritten: the file holds the checkpoint and one line per patch.
    expect((await fs.readFile(path.join(folder, 'task-1.json'), 'utf8')).split('\n')).toHaveLength(3)
  })

  it('lands a patch sent again (its answer was lost) on the same places instead of repeating it', async () => {
    await store.save('task-1', sample)
    await store.append('task-1', patch(0, 'turn-0'))
    await store.append('task-1', patch(0, 'turn-0', 'tool-0-0'))
    expect((await only()).records!.map((item) => item.id)).toEqual(['turn-0', 'tool-0-0'])
  })

  it('refuses a patch with nothing to append to, or without its base, and creates no file', async () => {
    await expect(store.append('task-1', patch(0, 'turn-0'))).rejects.toMatchObject({ code: 'ERR_NOT_FOUND' })
    await store.save('task-2', sample)
    await expect(store.append('task-2', { records: [] })).rejects.toMatchObject({ code: 'ERR_BAD_REQUEST' })
    await expect(store.append('task-2', { base: { steps: 0, records: 0 }, records: [{ output: 1 }] })).rejects.toMatchObject({ code: 'ERR_BAD_REQUEST' })
    await expect(store.append('task-2', { ...patch(0), expectedHashes: { 'a.md': 1 } })).rejects.toMatchObject({ code: 'ERR_BAD_REQUEST' })
    expect(await fs.readdir(folder)).toEqual(['task-2.json'])
  })

  it('skips an append torn by a crash, and keeps what came after it', async () => {
    await store.save('task-1', sample)
    await store.append('task-1', patch(0, 'turn-0'))
    await fs.appendFile(path.join(folder, 'task-1.json'), '\n{"base":{"steps":1,"records":1},"records":[{"id":"to')
    await store.append('task-1', patch(1, 'tool-0-0'))
    expect((await only()).records!.map((item) => item.id)).toEqual(['turn-0', 'tool-0-0'])
    expect(warnings).toEqual([])
  })

  it('moves aside a file whose patch starts past what it holds', async () => {
    await store.save('task-1', sample)
    await store.append('task-1', patch(2, 'tool-0-0'))
    expect(await store.list()).toEqual([])
    expect(warnings[0]).toMatch(/corrupt.*moved aside/)
  })

  it('replaces patches with the next whole save', async () => {
    await store.save('task-1', sample)
    await store.append('task-1', patch(0, 'turn-0'))
    await store.save('task-1', { ...sample, records: [record('turn-0'), record('tool-0-0')] })
    expect((await fs.readFile(path.join(folder, 'task-1.json'), 'utf8')).split('\n')).toHaveLength(1)
    expect((await only()).records!.map((item) => item.id)).toEqual(['turn-0', 'tool-0-0'])
  })
})
