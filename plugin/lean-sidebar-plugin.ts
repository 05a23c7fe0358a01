import path from 'node:path'
import { clientModule } from './client-bundle.js'
import { VITEPRESS_CLIENT_PREFIX } from './virtual-modules.js'
import type { Plugin } from './vite-types.js'

const SIDEBAR_GROUP = /\/vitepress\/dist\/client\/theme-default\/components\/VPSidebarGroup\.vue$/

/**
 * The default theme's sidebar group gets MetaBlog's sidebar item, which draws the generated sidebar
 * with one component a group and hands any other item to the default theme's own. The item takes the
 * theme's files it needs (its VPSidebarItem, its helpers) from the VitePress whose group imported it,
 * not from wherever MetaBlog is installed. An author's override of VPSidebarItem or VPSidebarGroup by a
 * Vite alias, as VitePress documents, is resolved before this and wins; one by another plugin's
 * `resolveId` would have to run before this one (`enforce: 'pre'`, listed first).
 */
export function leanSidebarPlugin(): Plugin {
  /** The `dist/client` folder of that VitePress, once its group asked for the item. */
  let clientDir: string | undefined
  // The stand-in's module: a build's comes with the site bundle.
  let sidebarItem = clientModule('sidebar-item', 'serve')
  return {
    name: 'metablog:lean-sidebar',
    enforce: 'pre',
    configResolved(config) {
      sidebarItem = clientModule('sidebar-item', config.command)
    },
    resolveId(source, importer) {
      if (source.startsWith(VITEPRESS_CLIENT_PREFIX)) {
        const file = source.slice(VITEPRESS_CLIENT_PREFIX.length)
        return clientDir ? path.posix.join(clientDir, file) : this.resolve(`vitepress/dist/client/${file}`, importer, { skipSelf: true })
      }
      // Every import of a build passes here: the cheap test first.
      if (source !== './VPSidebarItem.vue' || !importer) return undefined
      const group = importer.split('?')[0]!.replace(/\\/g, '/')
      if (!SIDEBAR_GROUP.test(group)) return undefined
      clientDir = path.posix.resolve(path.posix.dirname(group), '../..')
      return sidebarItem
    },
  }
}
