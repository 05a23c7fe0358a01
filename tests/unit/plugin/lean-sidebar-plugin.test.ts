import { describe, expect, it } from 'vitest'
import { leanSidebarPlugin } from '../../../plugin/lean-sidebar-plugin.js'
import { VITEPRESS_CLIENT_PREFIX } from '../../../plugin/virtual-modules.js'

type ResolveId = (this: { resolve: (source: string) => Promise<{ id: string } | null> }, source: string, importer?: string) => unknown

/** The plugin's hook, with a resolver that names what it was asked for (Vite's, when the plugin knows no VitePress yet). */
function hook(command: 'serve' | 'build' = 'serve'): (source: string, importer?: string) => unknown {
  const plugin = leanSidebarPlugin()
  ;(plugin.configResolved as (config: { command: string }) => void)({ command })
  const resolveId = plugin.resolveId as ResolveId
  const context = { resolve: async (source: string) => ({ id: `resolved:${source}` }) }
  return (source, importer) => resolveId.call(context, source, importer)
}

const GROUP = '/site/node_modules/vitepress/dist/client/theme-default/components/VPSidebarGroup.vue'

describe('leanSidebarPlugin', () => {
  it("gives the default theme's sidebar group MetaBlog's item from the dev bundle, for its script block and on Windows too", () => {
    const resolve = hook()
    for (const importer of [GROUP, `${GROUP}?vue&type=script&setup=true&lang.ts`, 'C:\\site\\node_modules\\vitepress\\dist\\client\\theme-default\\components\\VPSidebarGroup.vue']) {
      expect(resolve('./VPSidebarItem.vue', importer), importer).toMatch(/[\\/]client[\\/]dev[\\/]sidebar-item\.js$/)
    }
  })

  it("takes a build's item from the site bundle", () => {
    expect(hook('build')('./VPSidebarItem.vue', GROUP)).toMatch(/[\\/]client[\\/]site[\\/]sidebar-item\.js$/)
  })

  it('leaves every other import alone', () => {
    const resolve = hook()
    expect(resolve('./VPSidebarItem.vue', '/site/.vitepress/theme/MySidebarGroup.vue')).toBeUndefined()
    expect(resolve('./VPSidebarItem.vue')).toBeUndefined()
    expect(resolve('./VPLink.vue', GROUP)).toBeUndefined()
    // What an author's alias for VPSidebarItem turned the import into before this plugin sees it.
    expect(resolve('/site/.vitepress/theme/MyItem.vue', GROUP)).toBeUndefined()
  })

  it("takes the theme's own files from the VitePress whose group asked, else from the one MetaBlog finds", async () => {
    const resolve = hook()
    await expect(resolve(`${VITEPRESS_CLIENT_PREFIX}shared.js`, '/metablog/dist/client/theme/sidebar-item.js')).resolves.toEqual({ id: 'resolved:vitepress/dist/client/shared.js' })
    resolve('./VPSidebarItem.vue', GROUP)
    expect(resolve(`${VITEPRESS_CLIENT_PREFIX}shared.js`, '/metablog/dist/client/theme/sidebar-item.js')).toBe('/site/node_modules/vitepress/dist/client/shared.js')
    expect(resolve(`${VITEPRESS_CLIENT_PREFIX}theme-default/components/VPSidebarItem.vue`)).toBe('/site/node_modules/vitepress/dist/client/theme-default/components/VPSidebarItem.vue')
  })
})
