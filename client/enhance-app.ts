// Installs MetaBlog into any VitePress theme: the graph component, the page-carried sidebar and, on the dev server only, the assistant's orb.
import type { EnhanceAppContext } from 'vitepress'
import { inBrowser } from 'vitepress'
import { defineAsyncComponent } from 'vue'
import assistant from 'virtual:metablog/assistant'
import loadGraph from 'virtual:metablog/graph-component'
import { providePageSidebar } from './theme/page-sidebar'
// Wiki-link and embed styles, for any theme.
import './theme/knowledge.css'

/**
 * MetaBlog's `enhanceApp`: call it from your theme's own (`enhanceApp(context) { metablog(context) }`),
 * or spread it in (`{ Layout, enhanceApp }`). Works with the default theme and with a custom Layout.
 */
export function enhanceApp({ app, siteData }: EnhanceAppContext): void {
  // For the graph page: `<KnowledgeGraph />` in any Markdown page; it and d3 load only where it is used
  // (null in a build where no page and none of the blog's code names it).
  if (loadGraph) app.component('KnowledgeGraph', defineAsyncComponent(loadGraph))
  // The generated sidebar comes with each page, in dev too (where the dev server updates it live).
  providePageSidebar(app)
  // A build resolves `assistant` to null: the writer UI is not part of a production site.
  if (assistant && inBrowser) assistant.installAssistant(app, siteData)
}
