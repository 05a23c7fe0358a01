// After tsc: .vue and .css files ship as they are (VitePress compiles them from node_modules), beside the compiled JS.
import fs from 'node:fs/promises'
import path from 'node:path'

const root = path.resolve(import.meta.dirname, '..')
const from = path.join(root, 'client')
const to = path.join(root, 'dist/client')
for (const name of await fs.readdir(from, { recursive: true })) {
  if (!/\.(vue|css)$/.test(name)) continue
  await fs.mkdir(path.dirname(path.join(to, name)), { recursive: true })
  const text = await fs.readFile(path.join(from, name), 'utf8')
  // A worker's `new URL('./x.ts', import.meta.url)` names a file: in the package it is the compiled x.js.
  await fs.writeFile(path.join(to, name), text.replace(/(new URL\(['"][^'"]+)\.ts(['"])/g, '$1.js$2'))
}
