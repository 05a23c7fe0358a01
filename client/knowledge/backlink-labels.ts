// What the backlinks block says and whether it shows, from withMetaBlog's `backlinks` option and the page's language.
import type { BacklinkLabels, BacklinksSetting } from '../../plugin/protocol'

/** Put in by withMetaBlog (a Vite `define`); absent when the client runs without it. */
declare const __METABLOG_BACKLINKS__: BacklinksSetting | undefined

const BUILT_IN: Record<string, BacklinkLabels> = {
  en: { title: 'Linked from', empty: 'No other page links here yet.', unresolved: "Links from this page to pages that don't exist yet:" },
  zh: { title: '链接到此页的页面', empty: '还没有其他页面链接到这里。', unresolved: '本页链接到的尚不存在的页面：' },
}

/** The option as withMetaBlog resolved it; on by default with the built-in labels. */
export function backlinksSetting(): BacklinksSetting {
  return typeof __METABLOG_BACKLINKS__ === 'object' && __METABLOG_BACKLINKS__ !== null ? __METABLOG_BACKLINKS__ : { enabled: true, outline: false, labels: {} }
}

/** Labels for a page language ('zh-CN' → the author's 'zh-CN', then 'zh', then English), the author's overriding ours. */
export function backlinkLabels(lang: string, setting: BacklinksSetting = backlinksSetting()): BacklinkLabels {
  const language = lang.toLowerCase().split('-')[0] ?? ''
  const find = (table: Record<string, Partial<BacklinkLabels>>): Partial<BacklinkLabels> | undefined => {
    const key = Object.keys(table).find((name) => name.toLowerCase() === lang.toLowerCase()) ?? Object.keys(table).find((name) => name.toLowerCase() === language)
    return key === undefined ? undefined : table[key]
  }
  return { ...BUILT_IN.en!, ...find(BUILT_IN), ...find(setting.labels) }
}
