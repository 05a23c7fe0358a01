// `vitepress build` of a generated blog, plain VitePress against the same pages with MetaBlog, run
// alternately: wall time, peak memory (the build process's max RSS) and dist size, with their ratios (the median of the rounds' ratios).
// For reference, also plain VitePress with the same sidebar and links written by hand.
// 1,000 pages by default; METABLOG_BENCH_BIG=1 adds 5,000. METABLOG_BENCH_ROUNDS sets the runs per side (default 5:
// the peak of the same build lands in one of two places depending on when V8 collects, and a median of
// two runs is their mean; on this shared machine a round's wall ratio spread 1.07-1.40× within one run,
// so a median of three still moved with one slow build).
import { spawn } from 'node:child_process'
import { existsSync } from 'node:fs'
import fs from 'node:fs/promises'
import path from 'node:path'
import { performance } from 'node:perf_hooks'
import { VITEPRESS } from '../helpers/adopt-sites.js'
import { makeTempDir, REPO_ROOT } from '../helpers/dev-server.js'
import { writeBuildBlogs } from './site-build-blog.js'

const TARGETS = { build: 1.15, memory: 1.3, dist: 1.2 }
const ROUNDS = Math.max(1, Number(process.env.METABLOG_BENCH_ROUNDS ?? 5))
const SIZES = process.env.METABLOG_BENCH_BIG === '1' ? [1000, 5000] : [1000]
// GNU time reports the child's peak RSS; without it, /proc is polled.
const GNU_TIME = '/usr/bin/time'

interface BuildRun {
  wallMs: number
  peakBytes: number
}

/** The peak resident set size of a running process, from /proc (Linux); 0 elsewhere. */
async function residentPeak(pid: number): Promise<number> {
  const status = await fs.readFile(`/proc/${pid}/status`, 'utf8').catch(() => '')
  const match = /VmHWM:\s+(\d+) kB/.exec(status)
  return match ? Number(match[1]) * 1024 : 0
}

async function buildOnce(root: string): Promise<BuildRun> {
  await fs.rm(path.join(root, '.vitepress/dist'), { recursive: true, force: true })
  const withTime = existsSync(GNU_TIME)
  const command = withTime ? GNU_TIME : process.execPath
  const args = [...(withTime ? ['-f', 'metablog-peak-kb=%M', process.execPath] : []), VITEPRESS, 'build', root]
  const started = performance.now()
  const child = spawn(command, args, { cwd: REPO_ROOT, stdio: ['ignore', 'ignore', 'pipe'] })
  let errors = ''
  child.stderr.on('data', (chunk: Buffer) => (errors += chunk.toString()))
  let polled = 0
  const poll = setInterval(() => void residentPeak(child.pid!).then((peak) => (polled = Math.max(polled, peak))), 200)
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve))
  clearInterval(poll)
  const wallMs = performance.now() - started
  if (code !== 0) throw new Error(`vitepress build ${root} exited ${code}:\n${errors.slice(-2000)}`)
  const reported = /metablog-peak-kb=(\d+)/.exec(errors)
  return { wallMs, peakBytes: reported ? Number(reported[1]) * 1024 : polled }
}

async function folderBytes(folder: string): Promise<{ bytes: number; html: number; pages: number }> {
  let bytes = 0
  let html = 0
  let pages = 0
  for (const entry of await fs.readdir(folder, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue
    const size = (await fs.stat(path.join(entry.parentPath, entry.name))).size
    bytes += size
    if (entry.name.endsWith('.html')) {
      html += size
      pages++
    }
  }
  return { bytes, html, pages }
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b)
  const middle = Math.floor(sorted.length / 2)
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2
}

function line(label: string, plain: number, metablog: number, unit: (value: number) => string, target: number, ratio = metablog / plain): string {
  return `  ${label.padEnd(12)} plain ${unit(plain).padStart(9)}   MetaBlog ${unit(metablog).padStart(9)}   ${ratio.toFixed(2)}×   target ≤ ${target}×  ${ratio <= target ? 'PASS' : 'FAIL'}`
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`
const megabytes = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MB`

async function compare(pages: number): Promise<void> {
  const work = await makeTempDir(`site-build-${pages}`)
  try {
    const roots = { plain: path.join(work, 'plain'), metablog: path.join(work, 'metablog'), handSidebar: path.join(work, 'hand-sidebar') }
    await writeBuildBlogs(pages, roots)
    const runs = { plain: [] as BuildRun[], metablog: [] as BuildRun[], handSidebar: [] as BuildRun[] }
    for (let round = 0; round < ROUNDS; round++) {
      runs.plain.push(await buildOnce(roots.plain))
      runs.metablog.push(await buildOnce(roots.metablog))
      runs.handSidebar.push(await buildOnce(roots.handSidebar))
    }
    const dist = { plain: await folderBytes(path.join(roots.plain, '.vitepress/dist')), metablog: await folderBytes(path.join(roots.metablog, '.vitepress/dist')) }
    const walls = (side: BuildRun[]) => side.map((run) => seconds(run.wallMs)).join(', ')
    // Each round's ratio, then their median: the two builds of a round ran back to back, while the
    // machine's speed drifts by more than the target's margin over the minutes a bench takes.
    const ratios = (of: (run: BuildRun) => number) => runs.metablog.map((run, round) => of(run) / of(runs.plain[round]!))
    const listed = (values: number[]) => values.map((value) => `${value.toFixed(2)}×`).join(', ')
    const wallRatios = ratios((run) => run.wallMs)
    const peakRatios = ratios((run) => run.peakBytes)
    console.log(`vitepress build, ${pages} generated pages, ${ROUNDS} alternating rounds (plain: ${walls(runs.plain)}; MetaBlog: ${walls(runs.metablog)}; wall ratios ${listed(wallRatios)}; peak ratios ${listed(peakRatios)}); medians, and the median of the rounds' ratios`)
    console.log(line('build wall', median(runs.plain.map((run) => run.wallMs)), median(runs.metablog.map((run) => run.wallMs)), seconds, TARGETS.build, median(wallRatios)))
    console.log(line('peak memory', median(runs.plain.map((run) => run.peakBytes)), median(runs.metablog.map((run) => run.peakBytes)), megabytes, TARGETS.memory, median(peakRatios)))
    console.log(line('dist size', dist.plain.bytes, dist.metablog.bytes, megabytes, TARGETS.dist))
    const perPage = (side: { html: number; pages: number }) => `${(side.html / side.pages / 1024).toFixed(0)} KB`
    console.log(`  HTML a page  plain ${perPage(dist.plain)}, MetaBlog ${perPage(dist.metablog)} (${dist.metablog.pages} pages)`)
    // What the same reading costs any VitePress blog: MetaBlog against plain VitePress with the same sidebar and links written by hand.
    const hand = { wall: median(runs.handSidebar.map((run) => run.wallMs)), peak: median(runs.handSidebar.map((run) => run.peakBytes)) }
    const handDist = await folderBytes(path.join(roots.handSidebar, '.vitepress/dist'))
    const versus = (mine: number, theirs: number) => `${(mine / theirs).toFixed(2)}×`
    console.log(
      `  reference, plain VitePress with the same sidebar and links written by hand (${walls(runs.handSidebar)}): wall ${seconds(hand.wall)}, peak ${megabytes(hand.peak)}, dist ${megabytes(handDist.bytes)}; ` +
        `MetaBlog against it: wall ${versus(median(runs.metablog.map((run) => run.wallMs)), hand.wall)}, peak ${versus(median(runs.metablog.map((run) => run.peakBytes)), hand.peak)}, dist ${versus(dist.metablog.bytes, handDist.bytes)}`,
    )
  } finally {
    await fs.rm(work, { recursive: true, force: true })
  }
}

export async function run(): Promise<void> {
  for (const pages of SIZES) await compare(pages)
}
