declare module 'virtual:metablog/graph' {
  /** In a build, the path (under the site's base) of the graph's JSON asset; null in dev, where the API serves the graph. */
  const graphAsset: string | null
  export default graphAsset
}

/** The `agent.maxSteps` option, put in by withMetaBlog (absent when the theme runs without it). */
declare const __METABLOG_AGENT_MAX_STEPS__: number | undefined

/** The `agent.contextWindows` option, put in by withMetaBlog (absent when the theme runs without it). */
declare const __METABLOG_AGENT_CONTEXT_WINDOWS__: Record<string, number> | undefined

declare module 'virtual:metablog/assistant' {
  /** The dev-only part of MetaBlog (the orb, the live graph); null in a build, which leaves all of it out. */
  const assistant: typeof import('./dev-assistant') | null
  export default assistant
}

declare module 'virtual:metablog/local-graph' {
  /** Loads the KnowledgeGraph component for the small graph under "Linked from"; null on the server, which never draws it. */
  const loadGraph: (() => Promise<typeof import('./components/KnowledgeGraph.vue')>) | null
  export default loadGraph
}

declare module 'virtual:metablog/graph-component' {
  /** Loads the KnowledgeGraph component; null in a build whose pages never use `<KnowledgeGraph>`, which then compiles none of it. */
  const loadGraph: (() => Promise<typeof import('./components/KnowledgeGraph.vue')>) | null
  export default loadGraph
}

// The default theme's own files, from the VitePress whose sidebar group imports MetaBlog's item (sidebar-item.ts).
declare module 'virtual:metablog/vitepress-client/shared.js' {
  export const EXTERNAL_URL_RE: RegExp
  export function isActive(currentPath: string, matchPath?: string, asRegex?: boolean): boolean
}

declare module 'virtual:metablog/vitepress-client/theme-default/support/utils.js' {
  export function normalizeLink(url: string): string
}

declare module 'virtual:metablog/vitepress-client/theme-default/components/VPSidebarItem.vue' {
  /** The default theme's VPSidebarItem, with the scope id of its styles. */
  const component: import('vue').Component & { __scopeId?: string }
  export default component
}
