// The Node side ships bundled (build/bundle-node.mjs): the dev API loads lazily, often while Vite is
// busy, and each ES module file it loads is a step that waits behind Vite's work. This loads the dev
// API's chunk as the dev server does, after VitePress, and counts the module files it brings.
import { execFile } from 'node:child_process'
import fs from 'node:fs/promises'
import path from 'node:path'
import { pathToFileURL } from 'node:url'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { makeTempDir, REPO_ROOT } from '../helpers/dev-server.js'

let work: string

beforeAll(async () => {
  work = await makeTempDir('node-bundle')
})

afterAll(async () => {
  await fs.rm(work, { recursive: true, force: true })
})

/** The URLs of the module files `chunk` loads once VitePress is loaded, in a process of its own. */
async function modulesLoadedBy(chunk: string): Promise<string[]> {
  const log = path.join(work, 'loaded.txt')
  const hooks = path.join(work, 'hooks.mjs')
  await fs.writeFile(hooks, `import fs from 'node:fs'\nexport async function load(url, context, next) {\n  fs.appendFileSync(${JSON.stringify(log)}, url + '\\n')\n  return next(url, context)\n}\n`)
  const register = path.join(work, 'register.mjs')
  await fs.writeFile(register, `import { register } from 'node:module'\nregister(${JSON.stringify(pathToFileURL(hooks).href)})\n`)
  // Run from the repository, so `vitepress` and the chunk's dependencies resolve as in the dev server.
  const script = `import fs from 'node:fs'\nawait import('vitepress')\nfs.appendFileSync(${JSON.stringify(log)}, 'MARK\\n')\nawait import(${JSON.stringify(pathToFileURL(chunk).href)})\n`
  await promisify(execFile)(process.execPath, ['--import', pathToFileURL(register).href, '--input-type=module', '-e', script], { cwd: REPO_ROOT })
  const lines = (await fs.readFile(log, 'utf8')).split('\n').filter(Boolean)
  return lines.slice(lines.indexOf('MARK') + 1)
}

describe('the bundled Node side', () => {
  it('loads the dev API in a handful of module files, with markdown-it and diff inside its chunk', async () => {
    const folder = path.join(REPO_ROOT, 'dist/node')
    const name = (await fs.readdir(folder)).find((file) => /^dev-api-.*\.js$/.test(file))
    expect(name, 'npm run build:plugin makes dist/node/dev-api-*.js').toBeDefined()
    const loaded = await modulesLoadedBy(path.join(folder, name!))
    // The chunk, the chunks it shares, gray-matter (one CommonJS file) and openai's error classes.
    expect(loaded.length).toBeLessThan(20)
    expect(loaded.filter((url) => /\/node_modules\/(markdown-it|diff|entities|mdurl|linkify-it|uc\.micro|punycode\.js)\//.test(url))).toEqual([])
  }, 60_000)
})
