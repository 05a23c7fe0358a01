// After tsc: MetaBlog's browser code as a blog's `vitepress build` and `vitepress dev` take it, bundled
// here once instead of module by module there.
//
// 1. The graph page's worker (its layout's and its painter's) as one self-contained, minified module in
//    dist/client/knowledge. The client names it as a plain asset URL (not inside `new Worker(…)`), so a
//    blog's build copies it as it is instead of running a Rollup build of its own for it: on a small blog
//    such builds, one a worker, were most of what MetaBlog added to `vitepress build` (0.4 and 0.7 s of 6 s).
// 2. The site bundle, dist/client/site: what a production site shows (the theme, `metablog/client`, the
//    sidebar, backlinks, the graph and d3), with its components compiled, in a handful of files. A blog's
//    build resolves MetaBlog's entries to these (plugin/client-bundle.ts). Module by module, the ~40 files
//    were each resolved, loaded and transformed twice (client and server bundles) and made ~0.5 s of a
//    6 s build.
// 3. The dev bundle, dist/client/dev: the same with the writer's client (orb, panel, runtime), for the
//    dev server. Module by module, the page asked for some 50 of them one after another before its first
//    paint, and for some 150 more when the orb first loaded, while the server was busiest.
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

/**
 * One split bundle of `entries` in `outdir`: shared code in chunks (one module state for every entry),
 * each entry's CSS imported at its end, the graph worker beside it.
 */
async function bundle(outdir, entries, { external, packages }) {
  const { metafile } = await build({
    absWorkingDir: root,
    entryPoints: entries,
    outdir,
    chunkNames: 'chunks/[name]-[hash]',
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'browser',
    target: TARGET,
    external,
    packages,
    plugins: [vueSfc(root)],
    minify: false,
    charset: 'utf8',
    metafile: true,
    logLevel: 'warning',
  })
  const cssInputs = (output) => Object.keys(metafile.outputs[output.cssBundle]?.inputs ?? {})
  for (const [file, output] of Object.entries(metafile.outputs)) {
    if (!file.endsWith('.js')) continue
    let text = compiledWorkerUrls(await fs.readFile(path.join(root, file), 'utf8'))
    // esbuild gives an entry the CSS of the chunks it imports dynamically too, which they import themselves.
    const later = new Set(output.imports.filter((each) => each.kind === 'dynamic-import' && !each.external).flatMap((each) => cssInputs(metafile.outputs[each.path])))
    const own = cssInputs(output).filter((input) => !later.has(input))
    if (own.length > 0 && own.length < cssInputs(output).length) throw new Error(`${file}: its CSS is partly its own, partly a dynamic chunk's; split them first`)
    // An entry's CSS (backlinks, wiki-links) comes after what it imports, as it did from the modules: it wins ties with the default theme's.
    if (own.length > 0) text += `import ${JSON.stringify(`./${path.relative(path.dirname(file), output.cssBundle)}`)}\n`
    else if (output.cssBundle) await fs.rm(path.join(root, output.cssBundle))
    await fs.writeFile(path.join(root, file), text)
  }
  for (const name of WORKERS) await fs.copyFile(path.join(root, `dist/client/knowledge/${name}.js`), path.join(root, outdir, `${name}.js`))
}

/** What a production site shows. */
const SITE_ENTRIES = {
  theme: 'client/theme/index.ts',
  client: 'client/index.ts',
  'enhance-app': 'client/enhance-app.ts',
  'sidebar-item': 'client/theme/sidebar-item.ts',
  'knowledge-graph': 'client/components/KnowledgeGraph.vue',
}
// The blog's Vue and VitePress, and what MetaBlog's plugin serves; d3 is bundled in. Readable in the package; the blog's build minifies.
await bundle('dist/client/site', SITE_ENTRIES, { external: ['vue', 'vitepress', 'vitepress/theme', 'virtual:*'] })
// The dev server's: the same and the writer's client, one bundle so that they share one module state
// (the live sidebar, the event bus). Packages stay imports, which Vite pre-bundles (client-deps-plugin).
await bundle('dist/client/dev', { ...SITE_ENTRIES, 'dev-assistant': 'client/dev-assistant.ts' }, { packages: 'external' })
