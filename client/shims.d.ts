declare module 'virtual:metablog/graph' {
  /** In a build, the path (under the site's base) of the graph's JSON asset; null in dev, where the API serves the graph. */
  const graphAsset: string | null
  export default graphAsset
}

/** The `agent.maxSteps` option, put in by withMetaBlog (absent when the theme runs without it). */
declare const __METABLOG_AGENT_MAX_STEPS__: number | undefined

/** The `agent.contextWindows` option, put in by withMetaBlog (absent when the theme runs without it). */
declare const __METABLOG_AGENT_CONTEXT_WINDOWS__: Record<string, number> | undefined
