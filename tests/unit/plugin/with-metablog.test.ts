import { describe, expect, it } from 'vitest'
import { withMetaBlog } from '../../../plugin/index.js'

const userPlugin = { name: 'user-plugin' }

function pluginNames(config: { vite?: { plugins?: unknown[] } }): string[] {
  return (config.vite?.plugins ?? []).map((plugin) => (plugin as { name: string }).name)
}

describe('withMetaBlog', () => {
  it('keeps everything the user configured and appends its plugins after theirs', () => {
    const seen: string[] = []
    const config = withMetaBlog({
      title: 'My blog',
      themeConfig: { nav: [{ text: 'Home', link: '/' }] },
      markdown: { lineNumbers: true, config: () => void seen.push('user markdown config') },
      vite: { plugins: [userPlugin], server: { port: 4000 } },
    })
    expect(config.title).toBe('My blog')
    expect(config.themeConfig).toEqual({ nav: [{ text: 'Home', link: '/' }] })
    expect(config.markdown?.lineNumbers).toBe(true)
    expect(config.vite?.server).toEqual({ port: 4000 })
    expect(pluginNames(config)).toEqual(['user-plugin', 'metablog:harden', 'metablog:dev-api', 'metablog:knowledge', 'metablog:client-deps', 'metablog:live-search', 'metablog:knowledge-ready', 'metablog:client-bundle', 'metablog:lean-sidebar', 'metablog:build-memory'])
  })

  it('guards snippets first, then runs the user’s markdown config before registering the wiki-link rule', async () => {
    const calls: string[] = []
    const config = withMetaBlog({ markdown: { config: () => void calls.push('user') } })
    const md = { use: (plugin: { name: string }) => calls.push(`use ${plugin.name}`) }
    await config.markdown!.config!(md as never)
    expect(calls).toEqual(['use metablogMarkdownGuard', 'user', 'use wikiLinkPlugin'])
  })

  it('gives VitePress local search the CJK tokenizer only where the author turned it on', () => {
    expect(withMetaBlog({ themeConfig: { nav: [] } }).themeConfig).toEqual({ nav: [] })
    const search = withMetaBlog({ themeConfig: { search: { provider: 'local', options: { detailedView: true } } } }).themeConfig.search
    expect(search.options.detailedView).toBe(true)
    expect(search.options.miniSearch.options.tokenize('知识图谱', 'text')).toContain('图谱')
    expect(search.options.miniSearch.searchOptions.tokenize('知识图谱')).toEqual(['知识', '识图', '图谱'])
  })

  it('applies the API only to the dev server', () => {
    const config = withMetaBlog({})
    const plugins = config.vite!.plugins as { name: string; apply?: string }[]
    expect(plugins.find((plugin) => plugin.name === 'metablog:dev-api')?.apply).toBe('serve')
    expect(plugins.find((plugin) => plugin.name === 'metablog:knowledge')?.apply).toBeUndefined()
  })

  it('accepts a function and an async function, like VitePress', async () => {
    const fromFunction = withMetaBlog(() => ({ title: 'sync', vite: { plugins: [userPlugin] } }))
    const fromAsync = withMetaBlog(async () => ({ title: 'async' }))
    expect(typeof fromFunction).toBe('function')
    const resolved = await fromFunction()
    expect(resolved.title).toBe('sync')
    expect(pluginNames(resolved)).toEqual(['user-plugin', 'metablog:harden', 'metablog:dev-api', 'metablog:knowledge', 'metablog:client-deps', 'metablog:live-search', 'metablog:knowledge-ready', 'metablog:client-bundle', 'metablog:lean-sidebar', 'metablog:build-memory'])
    expect(pluginNames(await fromAsync())).toContain('metablog:dev-api')
  })

  it('does not change the object it was given', () => {
    const original = { title: 'x', vite: { plugins: [userPlugin] } }
    withMetaBlog(original)
    expect(original).toEqual({ title: 'x', vite: { plugins: [userPlugin] } })
  })

  it('makes gray-matter YAML-only through markdown.frontmatter, keeping the user’s gray-matter options', () => {
    const config = withMetaBlog({ markdown: { frontmatter: { renderExcerpt: false, grayMatterOptions: { excerpt: true } } } })
    const frontmatter = config.markdown!.frontmatter!
    expect(frontmatter.renderExcerpt).toBe(false)
    expect(frontmatter.grayMatterOptions?.excerpt).toBe(true)
    const engines = frontmatter.grayMatterOptions!.engines as Record<string, { parse: (text: string) => unknown }>
    for (const name of ['javascript', 'json', 'coffee']) expect(() => engines[name]!.parse('{}'), name).toThrow(/YAML front matter only/)
    expect(engines.yaml!.parse('title: Hello')).toEqual({ title: 'Hello' })
  })

  it('turns off the dev server’s CORS unless the author set it', () => {
    const harden = (config: { vite?: { plugins?: unknown[] } }) =>
      (config.vite!.plugins as { name: string; config: (config: object) => unknown }[]).find((plugin) => plugin.name === 'metablog:harden')!
    expect(harden(withMetaBlog({})).config({})).toEqual({ server: { cors: false } })
    expect(harden(withMetaBlog({})).config({ server: { cors: { origin: 'http://localhost:3000' } } })).toBeUndefined()
  })

  it('hands the agent step limit to the page, keeping the user\'s defines, and refuses a nonsense limit', () => {
    expect(withMetaBlog({}).vite!.define).toMatchObject({ __METABLOG_AGENT_MAX_STEPS__: '10', __METABLOG_AGENT_CONTEXT_WINDOWS__: '{}' })
    const config = withMetaBlog({ vite: { define: { __MINE__: '1' } } }, { agent: { maxSteps: 4 } })
    expect(config.vite!.define).toMatchObject({ __MINE__: '1', __METABLOG_AGENT_MAX_STEPS__: '4' })
    expect(() => withMetaBlog({}, { agent: { maxSteps: 0 } })).toThrow(/agent.maxSteps must be a whole number/)
  })

  it('hands the backlinks option to the page', () => {
    expect(JSON.parse(withMetaBlog({}, { backlinks: false }).vite!.define!.__METABLOG_BACKLINKS__ as string)).toEqual({ enabled: false, outline: false, labels: {} })
  })

  it('hands the context-window overrides to the page and refuses a window too small to hold a request', () => {
    const config = withMetaBlog({}, { agent: { contextWindows: { 'my-local-model': 32_000, '*': 16_000 } } })
    expect(JSON.parse(config.vite!.define![`__METABLOG_AGENT_CONTEXT_WINDOWS__`] as string)).toEqual({ 'my-local-model': 32_000, '*': 16_000 })
    expect(() => withMetaBlog({}, { agent: { contextWindows: { tiny: 100 } } })).toThrow(/contextWindows\["tiny"\] must be a whole number of tokens/)
  })
})
