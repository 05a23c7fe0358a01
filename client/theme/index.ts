// The MetaBlog theme: VitePress's default theme, plus backlinks under pages and the writer's assistant on the dev server.
import type { Theme } from 'vitepress'
import DefaultTheme from 'vitepress/theme'
import { defineComponent, h } from 'vue'
import PageBacklinks from '../components/PageBacklinks.vue'
import { enhanceApp } from '../enhance-app'

const Layout = defineComponent({
  name: 'MetaBlogLayout',
  setup() {
    // Reading features, in production too: who links here, and the page's local graph.
    return () => h(DefaultTheme.Layout, null, { 'doc-after': () => h(PageBacklinks) })
  },
})

const MetaBlogTheme: Theme = {
  extends: DefaultTheme,
  Layout,
  enhanceApp,
}

export default MetaBlogTheme
