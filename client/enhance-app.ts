// Installs MetaBlog into any VitePress theme: the store, the graph component and, on the dev server only, the assistant's orb.
import { createPinia } from 'pinia'
import type { EnhanceAppContext } from 'vitepress'
import { inBrowser, useData } from 'vitepress'
import { defineAsyncComponent, defineComponent, h, render, type App } from 'vue'
import { connectionFromPage } from './api/connection'
import { bridgeServerEvents } from './api/server-events'
import KnowledgeGraph from './components/KnowledgeGraph.vue'
import { eventBus } from './event-bus'
import { followSidebarUpdates } from './knowledge/live-sidebar'
// Wiki-link and embed styles, for any theme.
import './theme/knowledge.css'

/** The orb for the page being read; `import.meta.env.DEV` drops it, and the whole writer UI, from production builds. */
const OrbForPage = defineComponent({
  name: 'MetaBlogOrbForPage',
  setup() {
    const { page } = useData()
    const AIChatOrb = defineAsyncComponent(() => import('./components/AIChatOrb.vue'))
    return () => h(AIChatOrb, { currentFile: page.value.relativePath || undefined })
  },
})

/** Mounts the orb in a container of its own, sharing the app's context (VitePress data, router, store): no layout slot needed. */
function mountOrb(app: App): void {
  const container = document.createElement('div')
  container.id = 'metablog-assistant'
  document.body.append(container)
  const vnode = h(OrbForPage)
  vnode.appContext = app._context
  render(vnode, container)
}

let bridged = false

/**
 * MetaBlog's `enhanceApp`: call it from your theme's own (`enhanceApp(context) { metablog(context) }`),
 * or spread it in (`{ Layout, enhanceApp }`). Works with the default theme and with a custom Layout.
 */
export function enhanceApp({ app, siteData }: EnhanceAppContext): void {
  if (!app.config.globalProperties.$pinia) app.use(createPinia())
  // For the graph page: `<KnowledgeGraph />` in any Markdown page.
  app.component('KnowledgeGraph', KnowledgeGraph)
  // Only the dev server serves the page token.
  if (import.meta.env.DEV && inBrowser && connectionFromPage()) {
    if (!bridged) {
      bridged = true
      const unbridge = bridgeServerEvents(eventBus)
      const unfollow = followSidebarUpdates(siteData)
      // A hot update of this module re-runs it: drop the old bridge so each event is passed on once.
      import.meta.hot?.dispose(() => {
        unbridge()
        unfollow()
        bridged = false
      })
    }
    mountOrb(app)
  }
}
