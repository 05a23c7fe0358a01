import type { IndexedPage } from './link-graph.js'

/** What one update changed, as the dev server needs it to refresh views (HMR events, re-renders). */
export interface IndexUpdate {
  /** Other pages whose rendered links changed (a link now resolves elsewhere, or an embedded title changed). */
  relinked: string[]
  /** Pages whose set of backlinks changed. */
  backlinksChanged: string[]
  /** The updated page(s), relinked and backlinksChanged together. */
  affected: string[]
  /** Nodes, edges or unresolved links changed. */
  graphChanged: boolean
  /** A page was added, removed or renamed, or its title, order, date or draft flag changed. */
  sidebarChanged: boolean
}

/** Collects the effects of one update while the index mutates, then reports them. */
export class ChangeSet {
  readonly relinked = new Set<string>()
  graphChanged = false
  sidebarChanged = false
  /** target → source → whether the source linked to the target before this update. */
  private readonly backlinksBefore = new Map<string, Map<string, boolean>>()

  noteBacklink(target: string, source: string, linkedBefore: boolean): void {
    let sources = this.backlinksBefore.get(target)
    if (!sources) this.backlinksBefore.set(target, (sources = new Map()))
    if (!sources.has(source)) sources.set(source, linkedBefore)
  }

  result(ownPaths: string[], exists: (path: string) => boolean, linksNow: (target: string, source: string) => boolean): IndexUpdate {
    const own = new Set(ownPaths)
    const backlinksChanged: string[] = []
    for (const [target, sources] of this.backlinksBefore) {
      if (!exists(target)) continue
      for (const [source, before] of sources) {
        if (before !== linksNow(target, source)) {
          backlinksChanged.push(target)
          break
        }
      }
    }
    const relinked = [...this.relinked].filter((path) => !own.has(path) && exists(path))
    if (relinked.length > 0) this.graphChanged = true
    const affected = new Set([...ownPaths.filter(exists), ...relinked, ...backlinksChanged])
    return {
      relinked: relinked.sort(),
      backlinksChanged: backlinksChanged.sort(),
      affected: [...affected].sort(),
      graphChanged: this.graphChanged,
      sidebarChanged: this.sidebarChanged,
    }
  }
}

/** A page's links as the graph sees them, to tell whether an edit changed the graph. */
function edgeSignature(page: IndexedPage): string {
  const links = page.links.map((link) => `${link.resolution.path ?? `?${link.target}`}#${link.heading ?? ''}`)
  // Unresolved attachments are listed in the graph too.
  for (const link of page.attachments) if (link.resolved === null) links.push(`!${link.target}`)
  return links.join('\n')
}

function sameList(left: string[], right: string[]): boolean {
  return left.length === right.length && left.every((item, index) => item === right[index])
}

/** Whether replacing `previous` by `next` (same path) changes what the graph or the sidebar show. */
export function notePageChange(changes: ChangeSet, previous: IndexedPage | undefined, next: IndexedPage): void {
  if (
    !previous ||
    previous.title !== next.title ||
    !sameList(previous.tags, next.tags) ||
    edgeSignature(previous) !== edgeSignature(next)
  ) {
    changes.graphChanged = true
  }
  if (!previous || previous.title !== next.title || previous.order !== next.order || previous.date !== next.date || previous.draft !== next.draft) {
    changes.sidebarChanged = true
  }
}
