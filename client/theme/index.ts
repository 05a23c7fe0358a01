// The MetaBlog theme: VitePress's default theme, plus the writer's assistant on the dev server only.
import { createPinia } from 'pinia'
import type { Theme } from 'vitepress'
import { inBrowser, useData } from 'vitepress'
import DefaultTheme from 'vitepress/theme'
import { defineAsyncComponent, defineComponent, h, type Component } from 'vue'
import { connectionFromPage } from '../api/connection'
import { bridgeServerEvents } from '../api/server-events'
import KnowledgeGraph from '../components/KnowledgeGraph.vue'
import { eventBus } from '../event-bus'
import PageBacklinks from '../components/PageBacklinks.vue'
import './knowledge.css'

/** Only the dev server serves the token; `import.meta.env.DEV` drops the writer UI from production builds. */
function writerComponent(): Component | null {
  if (import.meta.env.DEV && inBrowser && connectionFromPage()) {
    return defineAsyncComponent(() => import('../components/AIChatOrb.vue'))
  }
  return null
}

const AIChatOrb = writerComponent()
if (import.meta.env.DEV && inBrowser) {
  const unbridge = bridgeServerEvents(eventBus)
  // A hot update of this module re-runs it: drop the old bridge so each event is passed on once.
  import.meta.hot?.dispose(unbridge)
}

const Layout = defineComponent({
  name: 'MetaBlogLayout',
  setup() {
    const { page } = useData()
    // One entry per default-theme layout slot we fill.
    return () =>
      h(DefaultTheme.Layout, null, {
        // Reading features, in production too: who links here, and the page's local graph.
        'doc-after': () => h(PageBacklinks),
        'layout-bottom': () => (AIChatOrb ? h(AIChatOrb, { currentFile: page.value.relativePath || undefined }) : null),
      })
  },
})

const MetaBlogTheme: Theme = {
  extends: DefaultTheme,
  Layout,
  enhanceApp({ app }) {
    app.use(createPinia())
    // For the graph page: `<KnowledgeGraph />` in any Markdown page.
    app.component('KnowledgeGraph', KnowledgeGraph)
  },
}

export default MetaBlogTheme
