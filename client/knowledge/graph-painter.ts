// Hands a large graph's base layer to a worker to paint, so no frame's pixels are written on the main
// thread: one frame in flight at a time, and of the frames asked for meanwhile only the latest is
// painted next. Where workers are missing (or the worker fails) frames are painted here.
import { paintBase, type BaseFrame, type BaseGraph } from './graph-base-layer'
import type { PaintRequest, PaintResult } from './graph-paint'
import { createGraphWorker } from './graph-runner'

export interface BasePainter {
  /** The graph the next frames are of (the worker starts here, before the first frame); a frame still waiting for an older graph is dropped. */
  setGraph(graph: BaseGraph): void
  /** Paints `frame`, then calls `done` with its pixels; unless a later frame replaces it before its turn. */
  paint(frame: BaseFrame, done: (pixels: ImageData) => void): void
  stop(): void
}

interface Job {
  frame: BaseFrame
  done: (pixels: ImageData) => void
}

export function createBasePainter(): BasePainter {
  let graph: BaseGraph = { links: new Uint32Array(0), radii: new Float32Array(0) }
  let worker: Worker | null = null
  let workerFailed = typeof Worker === 'undefined'
  let running: Job | null = null
  let waiting: Job | null = null
  // The last frame's buffer, back from the canvas: the next frame is written into it.
  let spare: ArrayBuffer | null = null

  function paintHere({ frame, done }: Job): void {
    const pixels = new ImageData(frame.width, frame.height)
    paintBase(new Uint32Array(pixels.data.buffer), graph, frame)
    done(pixels)
  }

  function finished(job: Job, pixels: ImageData): void {
    running = null
    job.done(pixels)
    spare = pixels.data.buffer as ArrayBuffer
    const next = waiting
    waiting = null
    if (next) send(next)
  }

  function send(job: Job): void {
    if (workerFailed) return paintHere(job)
    running = job
    const buffer = spare?.byteLength === job.frame.width * job.frame.height * 4 ? spare : undefined
    spare = null
    post({ type: 'frame', frame: job.frame, buffer }, buffer ? [buffer] : [])
  }

  function post(request: PaintRequest, transfer: Transferable[] = []): void {
    worker ??= startWorker()
    worker.postMessage(request, transfer)
  }

  function startWorker(): Worker {
    const started = createGraphWorker()
    started.onmessage = (event: MessageEvent<PaintResult>) => {
      const { buffer, width, height } = event.data
      if (running) finished(running, new ImageData(new Uint8ClampedArray(buffer), width, height))
    }
    // A worker that cannot load (a strict CSP, say): paint here from now on, the frame in flight first.
    started.onerror = () => {
      workerFailed = true
      started.terminate()
      worker = null
      const lost = running
      running = null
      if (lost) send(lost)
    }
    return started
  }

  return {
    setGraph(next) {
      graph = next
      waiting = null
      if (!workerFailed) post({ type: 'graph', graph })
    },
    paint(frame, done) {
      const job = { frame, done }
      if (running) waiting = job
      else send(job)
    },
    stop() {
      worker?.terminate()
      worker = null
      running = null
      waiting = null
    },
  }
}
