import { afterEach, describe, expect, it, vi } from 'vitest'
import type { BaseFrame, BaseGraph } from '../../../../client/knowledge/graph-base-layer'
import { createBasePainter } from '../../../../client/knowledge/graph-painter'
import type { PaintRequest, PaintResult } from '../../../../client/knowledge/graph-paint'

/** The browser's ImageData, as far as the painter uses it. */
class FakeImageData {
  data: Uint8ClampedArray
  constructor(
    dataOrWidth: Uint8ClampedArray | number,
    public width: number,
    public height = 0,
  ) {
    if (typeof dataOrWidth === 'number') {
      this.height = width
      this.width = dataOrWidth
      this.data = new Uint8ClampedArray(dataOrWidth * width * 4)
    } else this.data = dataOrWidth
  }
}

/** A worker that answers only when the test says so, as a busy one would. */
class HeldWorker {
  static last: HeldWorker
  onmessage: ((event: MessageEvent<PaintResult>) => void) | null = null
  onerror: (() => void) | null = null
  requests: PaintRequest[] = []
  constructor() {
    HeldWorker.last = this
  }
  postMessage(request: PaintRequest) {
    this.requests.push(request)
  }
  get frames() {
    return this.requests.flatMap((request) => (request.type === 'frame' ? [request] : []))
  }
  answer() {
    const { frame, buffer } = this.frames.at(-1)!
    this.onmessage?.({ data: { buffer: buffer ?? new ArrayBuffer(frame.width * frame.height * 4), width: frame.width, height: frame.height } } as MessageEvent<PaintResult>)
  }
  terminate() {}
}

const graph: BaseGraph = { links: Uint32Array.from([0, 1]), radii: Float32Array.from([2, 2]) }
const frame = (x: number): BaseFrame => ({ width: 8, height: 4, positions: Float32Array.from([x, 1, 6, 1]), scale: 1, offsetX: 0, offsetY: 0, colors: Uint32Array.from([0xff0000ff, 0xff0000ff]), edgeColor: 0xff808080, thickness: 1, smooth: false })

afterEach(() => vi.unstubAllGlobals())

/** A painter of `graph` whose worker answers when the test says so. */
function heldPainter() {
  vi.stubGlobal('Worker', HeldWorker)
  vi.stubGlobal('ImageData', FakeImageData)
  const painter = createBasePainter()
  painter.setGraph(graph)
  return painter
}

describe('createBasePainter', () => {
  it('keeps one frame in flight, paints only the latest of those asked for meanwhile, and reuses the returned buffer', () => {
    const painter = heldPainter()
    const shown: number[] = []
    painter.paint(frame(1), () => shown.push(1))
    painter.paint(frame(2), () => shown.push(2))
    painter.paint(frame(3), () => shown.push(3))
    const worker = HeldWorker.last
    // The graph goes once, ahead of the frames.
    expect(worker.requests[0]).toEqual({ type: 'graph', graph })
    expect(worker.frames.map((request) => request.frame.positions[0])).toEqual([1])

    worker.answer()
    expect(shown).toEqual([1])
    expect(worker.frames.map((request) => request.frame.positions[0])).toEqual([1, 3])
    expect(worker.requests).toHaveLength(3)
    expect(worker.frames[1]!.buffer?.byteLength).toBe(8 * 4 * 4)
    worker.answer()
    expect(shown).toEqual([1, 3])
  })

  it('drops a frame still waiting when the graph changes, and sends the new graph before the next frame', () => {
    const painter = heldPainter()
    const shown: string[] = []
    painter.paint(frame(1), () => shown.push('old, in flight'))
    painter.paint(frame(2), () => shown.push('old, waiting'))
    const next: BaseGraph = { links: Uint32Array.from([1, 0]), radii: Float32Array.from([3, 3]) }
    painter.setGraph(next)
    HeldWorker.last.answer()
    painter.paint(frame(4), () => shown.push('new'))
    HeldWorker.last.answer()
    expect(shown).toEqual(['old, in flight', 'new'])
    expect(HeldWorker.last.requests.map((request) => (request.type === 'graph' ? request.graph : request.frame.positions[0]))).toEqual([graph, 1, next, 4])
  })

  it('paints on the main thread where workers are missing, and from the frame in flight on when the worker fails', () => {
    vi.stubGlobal('ImageData', FakeImageData)
    vi.stubGlobal('Worker', undefined)
    const here = createBasePainter()
    here.setGraph(graph)
    let pixels: FakeImageData | null = null
    here.paint(frame(1), (painted) => (pixels = painted as unknown as FakeImageData))
    const words = new Uint32Array(pixels!.data.buffer)
    expect(words[1 * 8 + 3]).toBe(0xff808080)
    expect(words[1 * 8 + 6]).toBe(0xff0000ff)

    vi.stubGlobal('Worker', HeldWorker)
    const failing = createBasePainter()
    failing.setGraph(graph)
    const shown: number[] = []
    failing.paint(frame(1), () => shown.push(1))
    HeldWorker.last.onerror?.()
    expect(shown).toEqual([1])
    failing.paint(frame(2), () => shown.push(2))
    expect(shown).toEqual([1, 2])
    expect(HeldWorker.last.frames).toHaveLength(1)
  })
})
