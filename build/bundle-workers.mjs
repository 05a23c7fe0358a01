// After tsc: the graph page's worker (its layout's and its painter's) as one self-contained, minified
// module in dist/client. The client names it as a plain asset URL (not inside `new Worker(…)`), so a
// blog's build copies it as it is instead of running a Rollup build of its own for it: on a small blog
// such builds, one a worker, were most of what MetaBlog added to `vitepress build` (0.4 and 0.7 s of 6 s).
import { build } from 'esbuild'
import fs from 'node:fs/promises'
import path from 'node:path'

const root = path.resolve(import.meta.dirname, '..')
const WORKERS = ['graph-worker']
await build({
  absWorkingDir: root,
  entryPoints: WORKERS.map((name) => `client/knowledge/${name}.ts`),
  outdir: 'dist/client/knowledge',
  bundle: true,
  format: 'esm',
  platform: 'browser',
  // VitePress's own browser target.
  target: 'es2020',
  minify: true,
  // Copied into a blog's build as it is, a map would be named there but missing.
  sourcemap: false,
  logLevel: 'warning',
})
// tsc's maps are of the modules these replace.
for (const name of WORKERS) await fs.rm(path.join(root, `dist/client/knowledge/${name}.js.map`), { force: true })
