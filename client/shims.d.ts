declare module 'virtual:metablog/graph' {
  import type { GraphResponse } from '../plugin/protocol'
  /** The wiki-link graph as the site was built (and, in dev, as the page was loaded). */
  const graph: GraphResponse
  export default graph
}
