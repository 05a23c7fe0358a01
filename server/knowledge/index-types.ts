// What the knowledge index answers about links, kept apart so the index file stays about the index.

export interface PageInput {
  /** Relative to the site's source folder, with '/', ending in '.md': 'posts/foo.md'. */
  path: string
  content: string
}

/** A link as written on a page, with where it leads. */
export interface OutgoingLink {
  syntax: 'wiki' | 'markdown'
  target: string
  heading?: string
  label?: string
  embed: boolean
  line: number
  /** The page it resolves to; null when unresolved. */
  resolved: string | null
}

/** What the markdown rule needs to render a link to a page. */
export interface ResolvedPage {
  path: string
  title: string
}
