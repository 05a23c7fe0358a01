// After tsc: .vue and .css files ship as they are, beside the compiled JS and its type declarations. A blog's
// dev server and build take the bundles instead (build/bundle-client.mjs, plugin/client-bundle.ts).
import fs from 'node:fs/promises'
import path from 'node:path'
import { compiledWorkerUrls } from './worker-urls.mjs'

const root = path.resolve(import.meta.dirname, '..')
const from = path.join(root, 'client')
const to = path.join(root, 'dist/client')
for (const name of await fs.readdir(from, { recursive: true })) {
  if (!/\.(vue|css)$/.test(name)) continue
  await fs.mkdir(path.dirname(path.join(to, name)), { recursive: true })
  await fs.writeFile(path.join(to, name), compiledWorkerUrls(await fs.readFile(path.join(from, name), 'utf8')))
}
// tsc keeps the URL's text as written in the compiled modules too.
for (const name of await fs.readdir(to, { recursive: true })) {
  if (!name.endsWith('.js')) continue
  const text = await fs.readFile(path.join(to, name), 'utf8')
  const rewritten = compiledWorkerUrls(text)
  if (rewritten !== text) await fs.writeFile(path.join(to, name), rewritten)
}
