// After tsc: the browser code a blog's `vitepress build` takes, bundled here once instead of module by module there.
//
// 1. The graph page's worker (its layout's and its painter's) as one self-contained, minified module in
//    dist/client/knowledge. The client names it as a plain asset URL (not inside `new Worker(…)`), so a
//    blog's build copies it as it is instead of running a Rollup build of its own for it: on a small blog
//    such builds, one a worker, were most of what MetaBlog added to `vitepress build` (0.4 and 0.7 s of 6 s).
// 2. The site bundle, dist/client/site: what a production site shows (the theme, `metablog/client`, the
//    sidebar, backlinks, the graph and d3), with its components compiled, in a handful of files. A blog's
//    build resolves MetaBlog's entries to these (plugin/site-bundle.ts). Module by module, the ~40 files
//    were each resolved, loaded and transformed twice (client and server bundles) and made ~0.5 s of a
//    6 s build. The dev server keeps the compiled modules and .vue files beside it, with the writer's client.
import { build } from 'esbuild'
import fs from 'node:fs/promises'
import path from 'node:path'
import { vueSfc } from './vue-sfc.mjs'
import { compiledWorkerUrls } from './worker-urls.mjs'

const root = path.resolve(import.meta.dirname, '..')
// VitePress's own browser target.
const TARGET = 'es2020'

const WORKERS = ['graph-worker']
await build({
  absWorkingDir: root,
  entryPoints: WORKERS.map((name) => `client/knowledge/${name}.ts`),
  outdir: 'dist/client/knowledge',
  bundle: true,
  format: 'esm',
  platform: 'browser',
  target: TARGET,
  minify: true,
  // Copied into a blog's build as it is, a map would be named there but missing.
  sourcemap: false,
  logLevel: 'warning',
})
// tsc's maps are of the modules these replace.
for (const name of WORKERS) await fs.rm(path.join(root, `dist/client/knowledge/${name}.js.map`), { force: true })

const SITE = 'dist/client/site'
const { metafile } = await build({
  absWorkingDir: root,
  entryPoints: {
    theme: 'client/theme/index.ts',
    client: 'client/index.ts',
    'enhance-app': 'client/enhance-app.ts',
    'sidebar-item': 'client/theme/sidebar-item.ts',
    'knowledge-graph': 'client/components/KnowledgeGraph.vue',
  },
  outdir: SITE,
  chunkNames: 'chunks/[name]-[hash]',
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'browser',
  target: TARGET,
  // The blog's Vue and VitePress, and what MetaBlog's plugin serves; d3 is bundled in.
  external: ['vue', 'vitepress', 'vitepress/theme', 'virtual:*'],
  plugins: [vueSfc(root)],
  // Readable in the package; the blog's build minifies.
  minify: false,
  charset: 'utf8',
  metafile: true,
  logLevel: 'warning',
})
for (const [file, output] of Object.entries(metafile.outputs)) {
  if (!file.endsWith('.js')) continue
  let text = compiledWorkerUrls(await fs.readFile(path.join(root, file), 'utf8'))
  // An entry's CSS (backlinks, wiki-links) comes after what it imports, as it did from the modules: it wins ties with the default theme's.
  if (output.cssBundle) text += `import ${JSON.stringify(`./${path.relative(path.dirname(file), output.cssBundle)}`)}\n`
  await fs.writeFile(path.join(root, file), text)
}
for (const name of WORKERS) await fs.copyFile(path.join(root, `dist/client/knowledge/${name}.js`), path.join(root, SITE, `${name}.js`))
