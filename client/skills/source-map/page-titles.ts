// Names a `![[page]]` embed by the page's title, the way the page shows it, from the blog's page list.
import type { PageSummary } from '../../../plugin/protocol'
import type { LinkTargets } from './wiki-link-text'

const key = (name: string) => name.trim().toLowerCase()

/** A target matches a page by its path, its file name (both without `.md`) or its title, in any case. */
export function pageTitles(pages: ReadonlyArray<Pick<PageSummary, 'path' | 'title'>>): LinkTargets {
  const titles = new Map<string, string>()
  for (const { path, title } of pages) {
    const bare = path.replace(/\.md$/i, '')
    for (const name of [title, bare.slice(bare.lastIndexOf('/') + 1), bare, path]) if (name && !titles.has(key(name))) titles.set(key(name), title)
  }
  return { titleOf: (target) => titles.get(key(target)) ?? null }
}
