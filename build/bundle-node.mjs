// After tsc: the plugin's Node side as one module graph in a few files (dist/node), which the
// package's main export points at. Its routes, stores and index load lazily in the dev server, often
// while Vite is busy, and each module file is a step that waits behind Vite's work: spread over some 60
// compiled files the first API call took 1-2 s; from a few chunks it takes a tenth of that.
// Dependencies stay outside (the blog installs them), but for the two the routes load that come as
// many ES module files (markdown-it with its own dependencies, some 75; diff, 19): bundled into the
// routes' chunk, the first call right after a 1,000-page blog's first paint went from 0.8 s to 0.4-0.7 s.
// The browser's files stay in dist/client.
import { build } from 'esbuild'
import path from 'node:path'

const root = path.resolve(import.meta.dirname, '..')
const BUNDLED = new Set(['markdown-it', 'diff'])

/** Every package import stays external but for BUNDLED ones (whose own imports esbuild then bundles). */
const externalPackages = {
  name: 'external-packages',
  setup(build) {
    build.onResolve({ filter: /^[^./]/ }, ({ path: specifier, importer }) => {
      if (/[\\/]node_modules[\\/]/.test(importer)) return undefined
      const name = specifier.startsWith('@') ? specifier.split('/', 2).join('/') : specifier.split('/', 1)[0]
      return BUNDLED.has(name) ? undefined : { path: specifier, external: true }
    })
  },
}
await build({
  absWorkingDir: root,
  // The knowledge build's page parser runs on a worker thread of its own in dev (server/knowledge/parse-off-thread.ts).
  entryPoints: { index: 'plugin/index.ts', 'parse-worker': 'server/knowledge/parse-worker.ts' },
  outdir: 'dist/node',
  bundle: true,
  // The lazily loaded parts become chunks of their own, sharing one copy of each module.
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  plugins: [externalPackages],
  sourcemap: true,
  // Beside index.js: a module's `new URL('../client/…', import.meta.url)` finds dist/client from any of them.
  chunkNames: '[name]-[hash]',
  logLevel: 'warning',
})
