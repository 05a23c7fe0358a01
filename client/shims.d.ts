declare module 'virtual:metablog/graph' {
  import type { GraphResponse } from '../plugin/protocol'
  /** The wiki-link graph as the site was built (and, in dev, as the page was loaded). */
  const graph: GraphResponse
  export default graph
}

/** The `agent.maxSteps` option, put in by withMetaBlog (absent when the theme runs without it). */
declare const __METABLOG_AGENT_MAX_STEPS__: number | undefined

/** The `agent.contextWindows` option, put in by withMetaBlog (absent when the theme runs without it). */
declare const __METABLOG_AGENT_CONTEXT_WINDOWS__: Record<string, number> | undefined
