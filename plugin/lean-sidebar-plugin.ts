import { fileURLToPath } from 'node:url'
import { DEFAULT_SIDEBAR_ITEM_ID } from './virtual-modules.js'
import type { Plugin } from './vite-types.js'

// The stand-in's module, beside the compiled plugin in dist/.
const SIDEBAR_ITEM = fileURLToPath(new URL('../client/theme/sidebar-item.js', import.meta.url))
const SIDEBAR_GROUP = /[\\/]vitepress[\\/]dist[\\/]client[\\/]theme-default[\\/]components[\\/]VPSidebarGroup\.vue$/
const DEFAULT_SIDEBAR_ITEM = 'vitepress/dist/client/theme-default/components/VPSidebarItem.vue'

/**
 * The default theme's sidebar group gets MetaBlog's sidebar item, which draws the generated sidebar
 * with one component a group and hands any other item to the default theme's own. An author's own
 * override of VPSidebarItem (a Vite alias, as VitePress documents) is resolved before this and wins.
 */
export function leanSidebarPlugin(): Plugin {
  return {
    name: 'metablog:lean-sidebar',
    enforce: 'pre',
    resolveId(source, importer) {
      if (source === DEFAULT_SIDEBAR_ITEM_ID) return this.resolve(DEFAULT_SIDEBAR_ITEM, importer, { skipSelf: true })
      return source === './VPSidebarItem.vue' && importer && SIDEBAR_GROUP.test(importer.split('?')[0]!) ? SIDEBAR_ITEM : undefined
    },
  }
}
