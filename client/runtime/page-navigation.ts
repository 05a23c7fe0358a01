// How a skill opens a page: the Vue layer registers VitePress's router here; without one (tests in
// Node, a page without the theme) nothing opens and the skill's reply link is the way there.

export interface PageNavigator {
  /** The page the author is on, as a source path (`posts/x.md`); undefined off a Markdown page. */
  currentFile(): string | undefined
  /** Opens a site route (`/posts/x`) in place, without a reload; resolves once the page has changed. */
  go(route: string): Promise<void>
}

let active: PageNavigator | null = null

/** Registers the page's navigator; the returned function removes it (only if it is still the one registered). */
export function setPageNavigator(navigator: PageNavigator): () => void {
  active = navigator
  return () => {
    if (active === navigator) active = null
  }
}

/** The registered navigator, or null when nothing can open a page. */
export function pageNavigator(): PageNavigator | null {
  return active
}
