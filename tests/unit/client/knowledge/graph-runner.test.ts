import { afterEach, describe, expect, it, vi } from 'vitest'
import type { GraphResponse } from '../../../../plugin/protocol'
import { createGraphRunner } from '../../../../client/knowledge/graph-runner'
import type { LayoutFrame } from '../../../../client/knowledge/graph-worker'

const graph: GraphResponse = {
  nodes: ['a.md', 'b.md', 'c.md'].map((path) => ({ path, title: path, tags: [] })),
  edges: [
    { source: 'a.md', target: 'b.md' },
    { source: 'b.md', target: 'c.md' },
  ],
  unresolved: [],
}

/** A worker that answers only when the test says so: its first frame may come late on a loaded machine. */
class SlowWorker {
  static last: SlowWorker
  onmessage: ((event: MessageEvent<LayoutFrame>) => void) | null = null
  posted: { type: string; run: number; links?: Uint32Array }[] = []
  constructor() {
    SlowWorker.last = this
  }
  postMessage(message: { type: string; run: number }) {
    this.posted.push(message)
  }
  answer(alpha: number) {
    const { run } = this.posted.at(-1)!
    this.onmessage?.({ data: { run, alpha, positions: new Float32Array(graph.nodes.length * 2).fill(1) } } as MessageEvent<LayoutFrame>)
  }
  terminate() {}
}

afterEach(() => vi.unstubAllGlobals())

describe('createGraphRunner', () => {
  it('counts a started layout as moving until its worker reports it settled, even before the first frame', () => {
    vi.stubGlobal('Worker', SlowWorker)
    vi.stubGlobal('requestAnimationFrame', () => 0)
    const frames: number[] = []
    const runner = createGraphRunner(graph, (alpha) => frames.push(alpha))
    expect(runner.moving).toBe(false)

    const model = runner.start(graph, 1)
    // Nothing has a place yet: whoever draws now must not take it for the settled picture.
    expect(model.nodes.every((node) => node.x === undefined)).toBe(true)
    expect(runner.moving).toBe(true)
    // The worker gets the links as node indices: a–b, b–c.
    expect([...SlowWorker.last.posted[0]!.links!]).toEqual([0, 1, 1, 2])

    SlowWorker.last.answer(0.3)
    expect(runner.moving).toBe(true)
    expect(model.nodes[0]!.x).toBe(1)
    SlowWorker.last.answer(0.0005)
    expect(runner.moving).toBe(false)
    expect(frames).toEqual([0.3, 0.0005])

    runner.start(graph, 0.5)
    expect(runner.moving).toBe(true)
    runner.stop()
    expect(runner.moving).toBe(false)
  })

  it('settles at once for an empty graph, and on the main thread where workers are missing', () => {
    vi.stubGlobal('Worker', SlowWorker)
    const empty = createGraphRunner(graph, () => {})
    empty.start({ nodes: [], edges: [], unresolved: [] }, 1)
    expect(empty.moving).toBe(false)

    vi.stubGlobal('Worker', undefined)
    let next: (() => void) | null = null
    vi.stubGlobal('requestAnimationFrame', (callback: () => void) => ((next = callback), 1))
    const runner = createGraphRunner(graph, () => {})
    runner.start(graph, 1)
    expect(runner.moving).toBe(true)
    for (let frame = 0; frame < 1000 && next; frame++) {
      const tick: () => void = next
      next = null
      tick()
    }
    expect(runner.moving).toBe(false)
  })
})
