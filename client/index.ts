// `metablog/client`: MetaBlog for any VitePress theme. Nothing here pulls in the default theme's CSS or fonts.
import { defineAsyncComponent, defineComponent, type Component } from 'vue'
import assistant from 'virtual:metablog/assistant'
import PageBacklinksComponent from './components/PageBacklinks.vue'

export { enhanceApp } from './enhance-app.js'
export type { BacklinkLabels, BacklinksSetting } from '../plugin/protocol.js'

/** The assistant's orb and panel (dev server only; renders nothing in a production build). `enhanceApp` already mounts it. */
export const AIChatOrb: Component = assistant?.AIChatOrb ?? defineComponent({ name: 'AIChatOrb', render: () => null })

/** "Linked from" and the page's local graph: put it after your page content. */
export const PageBacklinks: Component = PageBacklinksComponent

/** The whole wiki-link graph, or one page's neighbourhood with `focus` and `height`. */
export const KnowledgeGraph: Component = defineAsyncComponent(() => import('./components/KnowledgeGraph.vue'))
