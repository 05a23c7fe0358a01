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
const files = (await fs.readdir(folder)).filter((name) => name.endsWith('.bench.ts')).sort()
for (const name of files) {
  if (only.length && !only.some((word) => name.includes(word))) continue
  console.log(`\n=== ${name.replace('.bench.ts', '')} ===`)
  // The same Node flags (tsx's loader among them) in a fresh process.
  const child = spawnSync(process.execPath, [...process.execArgv, self, '--in-process', name], { stdio: 'inherit' })
  if (child.status !== 0) {
    console.error(`${name} failed (exit ${child.status ?? child.signal})`)
    process.exitCode = 1
  }
}
