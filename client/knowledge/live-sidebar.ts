// The dev server sends only the sidebar sections a change touched, each whole; the page windows its own
// section from them, instead of fetching every section of every folder again (megabytes on a 10,000-page blog).
import type { SiteData } from 'vitepress'
import type { Ref } from 'vue'
import type { SidebarUpdatedPayload } from '../../plugin/protocol'
import { devSidebarSource } from '../../server/knowledge/sidebar-window'
import { onServerEvent } from '../api/server-events'
import { applyLiveSections } from '../theme/page-sidebar'

/** The site data with the author's own sidebar replaced; the same object when the update carries none. */
export function patchedSiteData(site: SiteData, update: SidebarUpdatedPayload): SiteData {
  if (update.sidebar === undefined) return site
  return { ...site, themeConfig: { ...(site.themeConfig ?? {}), sidebar: update.sidebar } }
}

/** Keeps the sidebar live with `metablog:sidebar-updated`: generated sections by page, the author's own in `siteData`. Returns the unsubscribe. */
export function followSidebarUpdates(siteData: Ref<SiteData>): () => void {
  return onServerEvent('metablog:sidebar-updated', (update) => {
    if (update.sections) applyLiveSections(update.sections, devSidebarSource, update.paths)
    const next = patchedSiteData(siteData.value, update)
    if (next !== siteData.value) siteData.value = next
  })
}
