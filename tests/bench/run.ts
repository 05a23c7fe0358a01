// Runs every tests/bench/*.bench.ts in turn; each prints its own figures and ratios.
import fs from 'node:fs/promises'
import path from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'

const folder = path.dirname(fileURLToPath(import.meta.url))
const only = process.argv.slice(2)
const files = (await fs.readdir(folder)).filter((name) => name.endsWith('.bench.ts')).sort()
for (const name of files) {
  if (only.length && !only.some((word) => name.includes(word))) continue
  console.log(`\n=== ${name.replace('.bench.ts', '')} ===`)
  const module = (await import(pathToFileURL(path.join(folder, name)).href)) as { run: () => Promise<void> }
  await module.run()
}
