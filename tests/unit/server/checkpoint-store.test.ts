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
