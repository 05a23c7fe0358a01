// Runs every tests/bench/*.bench.ts in turn; each prints its own figures and ratios. Each bench
// runs in a process of its own, so one bench's heap, servers and timers cannot slow the next.
import { spawnSync } from 'node:child_process'
import fs from 'node:fs/promises'
import path from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'

const self = fileURLToPath(import.meta.url)
const folder = path.dirname(self)
const [first, second] = process.argv.slice(2)

if (first === '--in-process' && second) {
  const module = (await import(pathToFileURL(path.join(folder, second)).href)) as { run: () => Promise<void> }
  await module.run()
  process.exit(0)
}

const only = process.argv.slice(2)
const failures: string[] = []
const files = (await fs.readdir(folder)).filter((name) => name.endsWith('.bench.ts')).sort()
for (const name of files) {
  if (only.length && !only.some((word) => name.includes(word))) continue
  console.log(`\n=== ${name.replace('.bench.ts', '')} ===`)
  // The same Node flags (tsx's loader among them) in a fresh process; its output is echoed and read.
  const child = spawnSync(process.execPath, [...process.execArgv, self, '--in-process', name], { stdio: ['inherit', 'pipe', 'inherit'], encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 })
  process.stdout.write(child.stdout ?? '')
  if (child.status !== 0) {
    console.error(`${name} failed (exit ${child.status ?? child.signal})`)
    process.exitCode = 1
  }
  // A missed target is a failure of the whole run, not a line to overlook.
  const missed = (child.stdout ?? '').split('\n').filter((line) => /\bFAIL\b/.test(line))
  if (missed.length > 0) {
    failures.push(...missed.map((line) => `${name.replace('.bench.ts', '')}: ${line.trim()}`))
    process.exitCode = 1
  }
}
if (failures.length > 0) console.error(`\n${failures.length} target(s) missed:\n${failures.join('\n')}`)
