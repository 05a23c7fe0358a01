// A build carries the generated sidebar in each page's data, not in the site data every page inlines.
import { dataSymbol, type VitePressData } from 'vitepress'
import { computed, inject, type App } from 'vue'
import type { PageKnowledge } from '../../plugin/protocol'

/**
 * Provides VitePress's data again with the page's own sidebar section, for the theme under it:
 * the default theme's sidebar and pager read `theme.sidebar`, unaware it came with the page.
 */
export function providePageSidebar(app: App): void {
  const data = app.runWithContext(() => inject<VitePressData | undefined>(dataSymbol, undefined))
  if (!data) return
  const theme = computed(() => {
    const sidebar = (data.page.value as { metablog?: PageKnowledge }).metablog?.sidebar
    return sidebar ? { ...data.theme.value, sidebar } : data.theme.value
  })
  app.provide(dataSymbol, { ...data, theme })
}
