// The site config reaches the browser as JSON, which drops the tokenizer functions the plugin set for
// indexing; the search box needs the same ones to split a query the way the index was split.
import type { SiteData } from 'vitepress'
import { watch, type Ref } from 'vue'
import { withCjkTokenizer, type LocalSearchConfig } from '../../server/knowledge/local-search-options'

/** Gives VitePress's local search box the CJK tokenizer, again after each config hot update. */
export function installCjkSearch(siteData: Ref<SiteData>): void {
  const install = (themeConfig: { search?: LocalSearchConfig } | undefined) => {
    if (themeConfig?.search) themeConfig.search = withCjkTokenizer(themeConfig.search)
    for (const locale of Object.values(siteData.value.locales ?? {})) {
      const localeTheme = locale.themeConfig as { search?: LocalSearchConfig } | undefined
      if (localeTheme?.search) localeTheme.search = withCjkTokenizer(localeTheme.search)
    }
  }
  watch(siteData, (data) => install(data.themeConfig), { immediate: true })
}
