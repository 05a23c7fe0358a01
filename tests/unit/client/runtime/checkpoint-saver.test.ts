import { describe, expect, it } from 'vitest'
import { ApiError } from '../../../../client/api/errors'
import { CheckpointSaver, type CheckpointData, type CheckpointTransport } from '../../../../client/runtime/checkpoint-saver'
import type { CheckpointPatch, CheckpointStep } from '../../../../plugin/protocol'

function task() {
  const data: CheckpointData = { taskId: 't1', skill: 'agent', title: 'T', inputs: { text: 'x' }, steps: [], expectedHashes: {}, createdPaths: [], totalSteps: 1, records: [] }
  const record = (id: string, output: unknown = id) => data.records!.push({ id, output, finishedAt: 1 } satisfies CheckpointStep)
  return { data, record }
}

function transport(options: { append?: boolean; refuse?: (patch: CheckpointPatch) => ApiError | null } = {}) {
  const sent: ({ whole: CheckpointData } | { patch: CheckpointPatch })[] = []
  const target: CheckpointTransport = {
    save: async (whole) => void sent.push({ whole }),
    ...(options.append === false
      ? {}
      : {
          append: async (_taskId: string, patch: CheckpointPatch) => {
            const refusal = options.refuse?.(patch)
            if (refusal) throw refusal
            sent.push({ patch })
          },
        }),
  }
  return { sent, target }
}

describe('CheckpointSaver', () => {
  it('sends the checkpoint whole once, then only what is new', async () => {
    const { data, record } = task()
    const { sent, target } = transport()
    const saver = new CheckpointSaver(() => data, target, (error) => expect.fail(error.message))
    record('turn-0')
    await saver.save()
    record('tool-0-0')
    record('tool-0-1')
    data.expectedHashes['posts/a.md'] = 'h1'
    await saver.save()
    await saver.save()
    expect(sent[0]).toMatchObject({ whole: { records: [{ id: 'turn-0' }] } })
    expect(sent[1]).toEqual({ patch: { base: { steps: 0, records: 1 }, steps: [], records: data.records!.slice(1), expectedHashes: { 'posts/a.md': 'h1' }, pendingHashes: {}, createdPaths: [] } })
    // A heartbeat with nothing new carries no records.
    expect(sent[2]).toMatchObject({ patch: { base: { steps: 0, records: 3 }, records: [] } })
  })

  it('sends a streamed text only when it changed, and null once the step finished', async () => {
    const { data } = task()
    const { sent, target } = transport()
    const saver = new CheckpointSaver(() => data, target, () => undefined)
    await saver.save()
    data.partial = { stepId: 'loop', text: 'Hal' }
    await saver.save()
    await saver.save()
    data.partial = undefined
    await saver.save()
    expect(sent.slice(1).map((item) => ('patch' in item ? item.patch.partial : 'whole'))).toEqual([{ stepId: 'loop', text: 'Hal' }, undefined, null])
  })

  it('goes whole when the server has nothing to append to, and after a lost answer resends from what it last knew was held', async () => {
    const { data, record } = task()
    let refuse: ApiError | null = null
    const { sent, target } = transport({ refuse: () => refuse })
    const failures: string[] = []
    const saver = new CheckpointSaver(() => data, target, (error) => failures.push(error.message))
    await saver.save()
    record('turn-0')
    refuse = new ApiError('ERR_NETWORK', 'The dev server did not answer.', 0)
    await saver.save()
    refuse = null
    record('tool-0-0')
    await saver.save()
    expect(sent[1]).toMatchObject({ patch: { base: { records: 0 }, records: [{ id: 'turn-0' }, { id: 'tool-0-0' }] } })
    refuse = new ApiError('ERR_NOT_FOUND', 'There is no checkpoint for task t1 to add to.', 404)
    record('turn-1')
    await saver.save()
    expect(sent[2]).toMatchObject({ whole: { records: [{ id: 'turn-0' }, { id: 'tool-0-0' }, { id: 'turn-1' }] } })
    expect(failures).toEqual(['The dev server did not answer.'])
  })

  it('sends it whole again once the patches outweigh it, so neither side keeps a growing log', async () => {
    const { data, record } = task()
    const { sent, target } = transport()
    const saver = new CheckpointSaver(() => data, target, () => undefined)
    await saver.save()
    for (let index = 0; index < 40; index++) {
      record(`tool-${index}`, 'x'.repeat(8 * 1024))
      await saver.save()
    }
    const wholes = sent.flatMap((item, index) => ('whole' in item ? [index] : []))
    expect(wholes.length).toBeGreaterThan(1)
    expect(wholes.length).toBeLessThan(8)
    const sentBytes = sent.reduce((sum, item) => sum + JSON.stringify(item).length, 0)
    // Linear in what was recorded (40 × 8 KiB), not quadratic.
    expect(sentBytes).toBeLessThan(4 * 40 * 8 * 1024)
  })

  it('always sends it whole to a server that cannot append', async () => {
    const { data, record } = task()
    const { sent, target } = transport({ append: false })
    const saver = new CheckpointSaver(() => data, target, () => undefined)
    record('turn-0')
    await saver.save()
    record('tool-0-0')
    await saver.save()
    expect(sent.map((item) => Object.keys(item)[0])).toEqual(['whole', 'whole'])
    expect(sent[1]).toMatchObject({ whole: { records: [{ id: 'turn-0' }, { id: 'tool-0-0' }] } })
  })
})
