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
    expect(pluginNames(config)).toEqual(['user-plugin', 'metablog:dev-api', 'metablog:knowledge', 'metablog:client-deps'])
  })

  it('runs the user’s markdown config before registering the wiki-link rule', async () => {
    const calls: string[] = []
    const config = withMetaBlog({ markdown: { config: () => void calls.push('user') } })
    const md = { use: (plugin: { name: string }) => calls.push(`use ${plugin.name}`) }
    await config.markdown!.config!(md as never)
    expect(calls).toEqual(['user', 'use wikiLinkPlugin'])
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
    expect(pluginNames(resolved)).toEqual(['user-plugin', 'metablog:dev-api', 'metablog:knowledge', 'metablog:client-deps'])
    expect(pluginNames(await fromAsync())).toContain('metablog:dev-api')
  })

  it('does not change the object it was given', () => {
    const original = { title: 'x', vite: { plugins: [userPlugin] } }
    withMetaBlog(original)
    expect(original).toEqual({ title: 'x', vite: { plugins: [userPlugin] } })
  })

  it('hands the agent step limit to the page, keeping the user\'s defines, and refuses a nonsense limit', () => {
    expect(withMetaBlog({}).vite!.define).toEqual({ __METABLOG_AGENT_MAX_STEPS__: '10' })
    const config = withMetaBlog({ vite: { define: { __MINE__: '1' } } }, { agent: { maxSteps: 4 } })
    expect(config.vite!.define).toEqual({ __MINE__: '1', __METABLOG_AGENT_MAX_STEPS__: '4' })
    expect(() => withMetaBlog({}, { agent: { maxSteps: 0 } })).toThrow(/agent.maxSteps must be a whole number/)
  })
})
