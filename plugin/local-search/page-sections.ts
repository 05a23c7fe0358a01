/** One search entry: a heading of a page and the text under it, as VitePress's local search indexes it. */
export interface PageSection {
  anchor: string
  /** The heading's parents, outermost first, then the heading itself. */
  titles: string[]
  text: string
}

const HEADING = /<h([1-6])\b[^>]*\bid="([^"]*)"[^>]*>([\s\S]*?)<\/h\1>/gi

const plain = (html: string) => html.replace(/<[^>]*>/g, '')

/** A rendered page cut at its headings; the text before the first heading is not indexed (as in VitePress). */
export function pageSections(html: string): PageSection[] {
  const headings = [...html.matchAll(HEADING)]
  const sections: PageSection[] = []
  const parents: string[] = []
  headings.forEach((heading, index) => {
    const level = Number(heading[1]) - 1
    // The heading's permalink anchor holds only a marker character: leave it out of the title.
    const title = plain(heading[3]!.replace(/<a\b[^>]*class="header-anchor"[^>]*>[\s\S]*?<\/a>/i, '')).trim()
    const end = headings[index + 1]?.index ?? html.length
    const text = plain(html.slice(heading.index! + heading[0].length, end))
    if (!title) return
    parents.length = level
    parents[level] = title
    if (text.trim()) sections.push({ anchor: heading[2]!, titles: parents.filter(Boolean), text })
  })
  return sections
}
