// The dev server sends only the sidebar sections a change touched; the page patches its site data with
// them, instead of fetching every section of every folder again (megabytes on a 10,000-page blog).
import type { SiteData } from 'vitepress'
import type { Ref } from 'vue'
import type { SidebarUpdatedPayload } from '../../plugin/protocol'
import { onServerEvent } from '../api/server-events'

/** The site data with the update applied; the same object when the update carries no sidebar. */
export function patchedSiteData(site: SiteData, update: SidebarUpdatedPayload): SiteData {
  const themeConfig = site.themeConfig ?? {}
  if (update.sidebar !== undefined) return { ...site, themeConfig: { ...themeConfig, sidebar: update.sidebar } }
  if (!update.sections) return site
  const current = themeConfig.sidebar
  const sidebar: Record<string, unknown> = current && !Array.isArray(current) ? { ...current } : {}
  for (const [key, section] of Object.entries(update.sections ?? {})) {
    if (section === null) delete sidebar[key]
    else sidebar[key] = section
  }
  return { ...site, themeConfig: { ...themeConfig, sidebar } }
}

/** Keeps VitePress's site data (the ref `enhanceApp` receives) in step with `metablog:sidebar-updated`. Returns the unsubscribe. */
export function followSidebarUpdates(siteData: Ref<SiteData>): () => void {
  return onServerEvent('metablog:sidebar-updated', (update) => {
    const next = patchedSiteData(siteData.value, update)
    if (next !== siteData.value) siteData.value = next
  })
}
