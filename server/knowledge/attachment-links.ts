import { AttachmentTable } from './attachments.js'
import type { ChangeSet } from './change-set.js'
import type { IndexedPage } from './link-graph.js'

/**
 * The attachment side of the index: the site's attachment files, and which pages have a link
 * filed under each lookup key, so a file appearing or leaving re-resolves only those links.
 */
export class AttachmentLinks {
  readonly table = new AttachmentTable()
  private readonly dependents = new Map<string, Set<string>>()

  /** Resolves a page's attachment links in place and files them. */
  attach(page: IndexedPage): void {
    for (const link of page.attachments) {
      link.resolved = this.table.resolve(link.lookup)
      if (!link.lookup) continue
      const sources = this.dependents.get(link.lookup.key)
      if (sources) sources.add(page.path)
      else this.dependents.set(link.lookup.key, new Set([page.path]))
    }
  }

  detach(page: IndexedPage): void {
    for (const link of page.attachments) {
      if (!link.lookup) continue
      const sources = this.dependents.get(link.lookup.key)
      sources?.delete(page.path)
      if (sources?.size === 0) this.dependents.delete(link.lookup.key)
    }
  }

  /** A file was added or removed: re-resolve the links filed under its names; pages that now render differently are relinked. */
  fileChanged(relativePath: string, present: boolean, pages: Map<string, IndexedPage>, changes: ChangeSet): void {
    const keys = present ? this.table.add(relativePath) : this.table.remove(relativePath)
    const sources = new Set<string>()
    for (const key of keys) for (const source of this.dependents.get(key) ?? []) sources.add(source)
    for (const source of sources) {
      const page = pages.get(source)
      if (!page) continue
      for (const link of page.attachments) {
        const next = this.table.resolve(link.lookup)
        if (next === link.resolved) continue
        link.resolved = next
        changes.relinked.add(source)
        changes.graphChanged = true
      }
    }
  }

  /** The attachment files some page links to, sorted: what a build ships. */
  linked(pages: Iterable<IndexedPage>): string[] {
    const linked = new Set<string>()
    for (const page of pages) for (const link of page.attachments) if (link.resolved !== null) linked.add(link.resolved)
    return [...linked].sort()
  }
}
