import fs from 'node:fs/promises'
import path from 'node:path'
import { parseAst } from 'rollup/parseAst'
import type { SiteConfig } from 'vitepress'
import { afterEach, describe, expect, it } from 'vitest'
import { clientDepsPlugin } from '../../../plugin/client-deps-plugin.js'
import { usesKnowledgeGraph } from '../../../plugin/graph-usage.js'
import { clientBundlePlugin, importsOnlyEnhanceApp } from '../../../plugin/client-bundle.js'
import { GRAPH_COMPONENT_MODULE_ID, LOCAL_GRAPH_MODULE_ID, RESOLVED_GRAPH_COMPONENT_MODULE_ID, RESOLVED_LOCAL_GRAPH_MODULE_ID } from '../../../plugin/virtual-modules.js'
import { makeTempDir, REPO_ROOT } from '../../helpers/dev-server.js'

const parse = (code: string) => parseAst(code) as unknown as { body: { type: string }[] }

describe('importsOnlyEnhanceApp', () => {
  it('is true for a theme that takes enhanceApp alone, in one or several statements', () => {
    expect(importsOnlyEnhanceApp(`import { enhanceApp } from 'metablog/client'\nexport default { enhanceApp }`, parse)).toBe(true)
    expect(importsOnlyEnhanceApp(`import { enhanceApp as metablog } from "metablog/client"\nimport { enhanceApp } from "metablog/client"`, parse)).toBe(true)
  })

  it('is false for anything that may use the components', () => {
    for (const code of [
      `import { enhanceApp, PageBacklinks } from 'metablog/client'`,
      `import * as metablog from 'metablog/client'`,
      `import metablog from 'metablog/client'`,
      `import 'metablog/client'`,
      `export { PageBacklinks } from 'metablog/client'`,
      `export * from 'metablog/client'`,
      `import { enhanceApp } from 'metablog/client'\nconst more = () => import('metablog/client')`,
      `import { enhanceApp } from 'vitepress'`,
    ]) {
      expect(importsOnlyEnhanceApp(code, parse), code).toBe(false)
    }
  })
})

describe('clientBundlePlugin', () => {
  type ResolveId = (this: { getModuleInfo: (id: string) => { code: string } | null; parse: typeof parse }, source: string, importer?: string) => unknown
  type Config = (config: object, environment: { command: 'serve' | 'build' }) => unknown
  function resolver(command: 'serve' | 'build', modules: Record<string, string> = {}): (source: string, importer?: string) => unknown {
    const plugin = clientBundlePlugin()
    ;(plugin.config as Config)({}, { command })
    const resolveId = plugin.resolveId as ResolveId
    const context = { getModuleInfo: (id: string) => (id in modules ? { code: modules[id]! } : null), parse }
    return (source, importer) => resolveId.call(context, source, importer)
  }
  const entry = (bundle: 'site' | 'dev', name: string) => new RegExp(`[\\\\/]client[\\\\/]${bundle}[\\\\/]${name}\\.js$`)

  it("points a build's MetaBlog entries at the site bundle, a theme taking only enhanceApp at its module alone", () => {
    const resolve = resolver('build', { '/lean.ts': `import { enhanceApp } from 'metablog/client'\nexport default { enhanceApp }`, '/full.ts': `import { PageBacklinks } from 'metablog/client'` })
    expect(resolve('metablog/theme', '/theme.ts')).toMatch(entry('site', 'theme'))
    expect(resolve('metablog/client', '/lean.ts')).toMatch(entry('site', 'enhance-app'))
    expect(resolve('metablog/client', '/full.ts')).toMatch(entry('site', 'client'))
    expect(resolve('metablog/client', '/unknown.ts')).toMatch(entry('site', 'client'))
    expect(resolve('metablog', '/config.ts')).toBeUndefined()
    expect(resolve('vitepress/theme', '/theme.ts')).toBeUndefined()
  })

  it("points the dev server's at the dev bundle, whose entries share their chunks with the writer's client", async () => {
    const resolve = resolver('serve')
    expect(resolve('metablog/theme', '/theme.ts')).toMatch(entry('dev', 'theme'))
    expect(resolve('metablog/client', '/theme.ts')).toMatch(entry('dev', 'client'))
    expect(resolve('vitepress/theme', '/theme.ts')).toBeUndefined()
    // One module state: the live sidebar the writer's client applies is the one the theme renders, from one chunk.
    // Named beside the plugin: read where the package's build made it (npm test builds first).
    const theme = path.join(REPO_ROOT, 'dist', /client[\\/]dev[\\/]theme\.js$/.exec(resolve('metablog/theme', '/theme.ts') as string)![0])
    const chunks = path.join(path.dirname(theme), 'chunks')
    const defining = []
    for (const chunk of await fs.readdir(chunks)) if ((await fs.readFile(path.join(chunks, chunk), 'utf8')).includes('function applyLiveSections(')) defining.push(chunk)
    expect(defining).toHaveLength(1)
    for (const entry of [theme, path.join(path.dirname(theme), 'dev-assistant.js')]) expect(await fs.readFile(entry, 'utf8')).toContain(`"./chunks/${defining[0]}"`)
  })
})

describe('the KnowledgeGraph registration in a build', () => {
  let root = ''
  afterEach(async () => {
    if (root) await fs.rm(root, { recursive: true, force: true })
  })

  async function site(files: Record<string, string>): Promise<SiteConfig> {
    root = await makeTempDir('graph-usage')
    for (const [name, text] of Object.entries(files)) {
      await fs.mkdir(path.dirname(path.join(root, name)), { recursive: true })
      await fs.writeFile(path.join(root, name), text)
    }
    const vitepress = path.join(root, '.vitepress')
    const pages = Object.keys(files).filter((name) => name.endsWith('.md') && !name.startsWith('.'))
    return { root, srcDir: root, themeDir: path.join(vitepress, 'theme'), outDir: path.join(vitepress, 'dist'), cacheDir: path.join(vitepress, 'cache'), tempDir: path.join(vitepress, '.temp'), pages } as SiteConfig
  }

  const layout = { '.vitepress/theme/index.ts': `import { enhanceApp } from 'metablog/client'\nexport default { enhanceApp }`, 'index.md': '# Home\n' }

  it('is left out when no page and none of the blog’s code names the graph', async () => {
    const config = await site({ ...layout, 'posts/a.md': '# A\n\nKnowledge graphs are nice.\n', 'node_modules/x/KnowledgeGraph.vue': '<KnowledgeGraph />', '.vitepress/dist/a.js': 'KnowledgeGraph' })
    expect(await usesKnowledgeGraph(config)).toBe(false)
    // Both bundles of a build ask: the blog's files are read for the first only (every page, on a blog without the graph).
    expect(usesKnowledgeGraph(config)).toBe(usesKnowledgeGraph(config))
    const plugin = clientDepsPlugin()
    ;(plugin.config as (...args: unknown[]) => unknown)({}, { command: 'build', mode: 'production' })
    await (plugin.configResolved as (config: unknown) => Promise<void>)({ command: 'build', vitepress: config })
    expect((plugin.resolveId as (id: string) => unknown)(GRAPH_COMPONENT_MODULE_ID)).toBe(RESOLVED_GRAPH_COMPONENT_MODULE_ID)
    expect((plugin.load as (id: string) => unknown)(RESOLVED_GRAPH_COMPONENT_MODULE_ID)).toBe('export default null')
  })

  it('is kept when a page shows it, by either tag name, or the theme’s code names it', async () => {
    expect(await usesKnowledgeGraph(await site({ ...layout, 'graph.md': '# Graph\n\n<KnowledgeGraph />\n' }))).toBe(true)
    await fs.rm(root, { recursive: true, force: true })
    expect(await usesKnowledgeGraph(await site({ ...layout, 'graph.md': '<knowledge-graph focus="index.md"></knowledge-graph>\n' }))).toBe(true)
    await fs.rm(root, { recursive: true, force: true })
    const config = await site({ ...layout, '.vitepress/theme/Layout.vue': '<template><KnowledgeGraph :height="300" /></template>' })
    expect(await usesKnowledgeGraph(config)).toBe(true)
    const plugin = clientDepsPlugin()
    ;(plugin.config as (...args: unknown[]) => unknown)({}, { command: 'build', mode: 'production' })
    await (plugin.configResolved as (config: unknown) => Promise<void>)({ command: 'build', vitepress: config })
    expect((plugin.load as (id: string) => unknown)(RESOLVED_GRAPH_COMPONENT_MODULE_ID)).toMatch(/^export default \(\) => import\(".*[\\/]client[\\/]site[\\/]knowledge-graph\.js"\)$/)
  })

  it('is always registered under the dev server, where it compiles only when a page shows it', () => {
    const plugin = clientDepsPlugin()
    ;(plugin.config as (...args: unknown[]) => unknown)({}, { command: 'serve', mode: 'development' })
    expect((plugin.load as (id: string) => unknown)(RESOLVED_GRAPH_COMPONENT_MODULE_ID)).toMatch(/^export default \(\) => import\(".*[\\/]client[\\/]dev[\\/]knowledge-graph\.js"\)$/)
  })
})

describe('the local graph under "Linked from"', () => {
  type Load = (id: string, options?: { ssr?: boolean }) => unknown
  it('loads in the browser, from the site bundle, and is null in the server bundle, which never draws it (and so takes neither it nor d3)', () => {
    const plugin = clientDepsPlugin()
    ;(plugin.config as (...args: unknown[]) => unknown)({}, { command: 'build', mode: 'production' })
    expect((plugin.resolveId as (id: string) => unknown)(LOCAL_GRAPH_MODULE_ID)).toBe(RESOLVED_LOCAL_GRAPH_MODULE_ID)
    expect((plugin.load as Load)(RESOLVED_LOCAL_GRAPH_MODULE_ID, { ssr: false })).toMatch(/^export default \(\) => import\(".*[\\/]client[\\/]site[\\/]knowledge-graph\.js"\)$/)
    expect((plugin.load as Load)(RESOLVED_LOCAL_GRAPH_MODULE_ID, { ssr: true })).toBe('export default null')
  })
})
