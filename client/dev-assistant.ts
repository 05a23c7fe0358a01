// Everything of MetaBlog's that exists only under `vitepress dev`. Reached through the
// `virtual:metablog/assistant` module, which a build resolves to null: Rollup never loads this file,
// the orb, the runtime or their dependencies (openai, markdown-it, highlight.js…) for a production site.
import { createPinia } from 'pinia'
import { useData, type SiteData } from 'vitepress'
import { defineAsyncComponent, defineComponent, h, render, type App, type Component, type Ref } from 'vue'
import type { GraphResponse } from '../plugin/protocol'
import { connectionFromPage } from './api/connection'
import { createMetaBlogApi } from './api/metablog-api'
import { bridgeServerEvents } from './api/server-events'
import { eventBus } from './event-bus'
import { followSidebarUpdates } from './knowledge/live-sidebar'

/** The assistant's orb and panel, loaded when first shown. */
export const AIChatOrb: Component = defineAsyncComponent(() => import('./components/AIChatOrb.vue'))

/** The orb for the page being read. */
const OrbForPage = defineComponent({
  name: 'MetaBlogOrbForPage',
  setup() {
    const { page } = useData()
    return () => h(AIChatOrb, { currentFile: page.value.relativePath || undefined })
  },
})

let bridged = false

/** Without a paint to wait for (a tab opened in the background records none), the orb mounts after this long. */
const FIRST_PAINT_WAIT_MS = 3000

/** Runs `mount` once the page has painted its first content: the orb's code loads after the page, never competing with it. */
function afterFirstPaint(mount: () => void): void {
  let observer: PerformanceObserver | undefined
  let timer: ReturnType<typeof setTimeout> | undefined
  let done = false
  const once = () => {
    if (done) return
    done = true
    observer?.disconnect()
    clearTimeout(timer)
    mount()
  }
  timer = setTimeout(once, FIRST_PAINT_WAIT_MS)
  try {
    observer = new PerformanceObserver((list) => list.getEntriesByName('first-contentful-paint').length > 0 && once())
    observer.observe({ type: 'paint', buffered: true })
  } catch {
    // A browser without paint timing: the timer mounts it.
  }
}

/**
 * Passes the dev server's events to the page, keeps the sidebar in `siteData` live, and mounts the orb
 * in a container of its own, sharing the app's context (no layout slot needed), once the page has painted.
 */
export function installAssistant(app: App, siteData: Ref<SiteData>): void {
  // The orb's store, also for an <AIChatOrb> of the author's own layout. Here, not in enhanceApp: a build would parse Pinia and the devtools kit it imports (~280 KB) for nothing.
  if (!app.config.globalProperties.$pinia) app.use(createPinia())
  // Only the dev server serves the page token.
  if (!connectionFromPage()) return
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
  afterFirstPaint(() => {
    const container = document.createElement('div')
    container.id = 'metablog-assistant'
    document.body.append(container)
    const vnode = h(OrbForPage)
    vnode.appContext = app._context
    render(vnode, container)
  })
}

/** The live graph from the dev server's API, or with `path` that page's neighbourhood; null without the page token. */
export async function loadLiveGraph(path?: string): Promise<GraphResponse | null> {
  const connection = connectionFromPage()
  return connection ? createMetaBlogApi(connection).graph({ path }) : null
}
