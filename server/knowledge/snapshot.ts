import type { DefaultTheme } from 'vitepress'
import type { GraphResponse } from '../../plugin/protocol.js'
import type { Collision } from './graph-view.js'
import type { IndexedPage } from './link-graph.js'

/**
 * Everything a KnowledgeIndex holds, as sorted plain data: two indexes over the same pages have
 * equal snapshots however they got there (one full build, or any sequence of updates).
 */
export interface IndexSnapshot {
  pages: Omit<IndexedPage, 'content' | 'bodyOffset'>[]
  names: [string, Partial<Record<'paths' | 'titles' | 'aliases' | 'dependents', string[]>>][]
  pathDependents: [string, string[]][]
  incoming: [string, string[]][]
  graph: GraphResponse
  collisions: Collision[]
  sidebar: DefaultTheme.SidebarItem[]
}
