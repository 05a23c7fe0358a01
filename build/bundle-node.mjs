// After tsc: the plugin's Node side as one module graph in a few files (dist/node), which the
// package's main export points at. Its routes, stores and index load lazily in the dev server, often
// while Vite is busy starting: spread over some 60 compiled files, each step of loading them waited
// behind Vite's work and the first API call took 1-2 s; from a few chunks it takes a tenth of that.
// Dependencies stay outside (the blog installs them); the browser's files stay in dist/client.
import { build } from 'esbuild'
import path from 'node:path'

const root = path.resolve(import.meta.dirname, '..')
await build({
  absWorkingDir: root,
  entryPoints: ['plugin/index.ts'],
  outdir: 'dist/node',
  bundle: true,
  // The lazily loaded parts become chunks of their own, sharing one copy of each module.
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  packages: 'external',
  sourcemap: true,
  // Beside index.js: a module's `new URL('../client/…', import.meta.url)` finds dist/client from any of them.
  chunkNames: '[name]-[hash]',
  logLevel: 'warning',
})
