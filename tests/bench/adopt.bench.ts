// The sample blogs with the packed tarball installed against the same blogs without MetaBlog:
// `vitepress build` time, and `vitepress dev` start until a post's HTML is served, measured alternately.
import { spawn } from 'node:child_process'
import fs from 'node:fs/promises'
import path from 'node:path'
import { performance } from 'node:perf_hooks'
import { ADOPT_SITES, adoptPage, makeAdoptWorkspace, run as execute, VITEPRESS } from '../helpers/adopt-sites.js'
import { freePort } from '../helpers/dev-server-process.js'
import { dependenciesSettled, REPO_ROOT } from '../helpers/dev-server.js'

// A small blog's build is 3-7 s, and single builds here spread ±15%: five rounds, and the median of the rounds' ratios.
const BUILD_ROUNDS = 5
// A start is about a second; single starts on this shared 2-core machine spread ±30%, so more of them than builds.
const DEV_ROUNDS = 9
const BUILD_TARGET = 1.15
const DEV_TARGET = 1.1

async function buildOnce(root: string): Promise<number> {
  const started = performance.now()
  await execute(process.execPath, [VITEPRESS, 'build', root], { cwd: REPO_ROOT })
  return performance.now() - started
}

/**
 * `vitepress dev` in its own process, as an author starts it: the time until the page's HTML arrives.
 * With `settle`, it stops only once Vite has written its dependency cache, as an author's first start would.
 */
async function devStartOnce(root: string, route: string, settle = false): Promise<number> {
  const port = await freePort()
  const started = performance.now()
  const child = spawn(process.execPath, [VITEPRESS, 'dev', root, '--host', '127.0.0.1', '--port', String(port), '--strictPort'], { cwd: REPO_ROOT, stdio: 'ignore' })
  const exited = new Promise((resolve) => child.once('exit', resolve))
  try {
    while (performance.now() - started < 60_000) {
      const response = await fetch(`http://127.0.0.1:${port}${route}`).catch(() => undefined)
      if (response?.ok) {
        await response.text()
        const elapsed = performance.now() - started
        if (settle) await dependenciesSettled(root)
        return elapsed
      }
      await new Promise((resolve) => setTimeout(resolve, 25))
    }
    throw new Error(`vitepress dev for ${root} served ${route} not within 60 s`)
  } finally {
    // Let the dependency scan settle so stopping does not leave a half-written cache for the next start.
    await new Promise((resolve) => setTimeout(resolve, 300))
    child.kill('SIGTERM')
    const timer = setTimeout(() => child.kill('SIGKILL'), 5000)
    await exited
    clearTimeout(timer)
  }
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b)
  const middle = Math.floor(sorted.length / 2)
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2
}

/**
 * Alternates vanilla and MetaBlog runs (after one untimed run each, `warm`) and prints the medians and the
 * median of the rounds' ratios: the two runs of a round ran back to back, under much the same load.
 */
async function compare(
  label: string,
  rounds: number,
  target: number,
  measure: (root: string) => Promise<number>,
  roots: { site: string; vanilla: string },
  warm: (root: string) => Promise<number> = measure,
): Promise<void> {
  await warm(roots.vanilla)
  await warm(roots.site)
  const times = { with: [] as number[], without: [] as number[] }
  for (let round = 0; round < rounds; round++) {
    times.without.push(await measure(roots.vanilla))
    times.with.push(await measure(roots.site))
  }
  const ratios = times.with.map((time, round) => time / times.without[round]!)
  const ratio = median(ratios)
  const list = (values: number[]) => values.map((time) => time.toFixed(0)).join(', ')
  console.log(`${label}, median of ${rounds} alternating runs`)
  console.log(`  without MetaBlog  ${median(times.without).toFixed(0)} ms   (${list(times.without)})`)
  console.log(`  with MetaBlog     ${median(times.with).toFixed(0)} ms   (${list(times.with)})`)
  console.log(`  ratio of rounds   ${ratio.toFixed(2)}×   target ≤ ${target}×  ${ratio <= target ? 'PASS' : 'FAIL'}   (${ratios.map((value) => value.toFixed(2)).join(', ')})`)
}

export async function run(): Promise<void> {
  const workspace = await makeAdoptWorkspace()
  try {
    for (const site of ADOPT_SITES) {
      const roots = workspace.roots[site]
      await compare(`${site}: vitepress build`, BUILD_ROUNDS, BUILD_TARGET, buildOnce, roots)
      // The untimed first start runs until Vite's dependency cache is written, so the timed ones are second starts:
      // stopped 300 ms after the HTML, a first start never wrote it (MetaBlog's client dependencies take seconds to
      // pre-bundle), and every timed start ran the dependency scan and optimizer again.
      const route = adoptPage(site)
      await compare(`${site}: vitepress dev start to ${route} served`, DEV_ROUNDS, DEV_TARGET, (root) => devStartOnce(root, route), roots, (root) => devStartOnce(root, route, true))
    }
  } finally {
    await fs.rm(workspace.work, { recursive: true, force: true })
  }
}
