// The blog's posts related to a new one: searched by its topic, title and section headings (the
// search API's tokenizer reads Chinese and Japanese as character pairs), pages in its language first.
import type { SearchResult } from '../../plugin/protocol'
import type { SkillContext } from '../runtime/types'
import { wikiLinkLabel } from './markdown'
import { requestLanguage } from './post-place'

export type Related = Pick<SearchResult, 'path' | 'title'>[]

export const RELATED_HEADING = '## Related posts'
const MAX_RELATED = 5
const MAX_QUERIES = 8
// A page in the post's own language is the likelier reader's next page.
const SAME_LANGUAGE_BOOST = 1.5

/** A folder's listing page is not a post to read next. */
function isListing(path: string): boolean {
  return path === 'index.md' || path.endsWith('/index.md')
}

/**
 * Runs each query through the blog's search and ranks pages by how high and how often they came up,
 * pages in the language of `language` (a sample of the post's text) first.
 */
export async function findRelated(context: SkillContext, queries: readonly string[], language: string): Promise<Related> {
  const wanted = requestLanguage(language)
  const scores = new Map<string, { title: string; score: number }>()
  const distinct = [...new Set(queries.map((query) => query.trim()).filter(Boolean))].slice(0, MAX_QUERIES)
  // Side by side: the draft page waits for these.
  const answers = await Promise.all(distinct.map((query) => context.api.search(query, { signal: context.signal })))
  for (const { results } of answers) {
    results.forEach((result, rank) => {
      if (isListing(result.path)) return
      const entry = scores.get(result.path) ?? { title: result.title, score: 0 }
      entry.score += 1 / (rank + 1)
      scores.set(result.path, entry)
    })
  }
  return [...scores]
    .map(([path, { title, score }]) => ({ path, title, score: requestLanguage(title) === wanted ? score * SAME_LANGUAGE_BOOST : score }))
    .sort((left, right) => right.score - left.score || left.path.localeCompare(right.path))
    .slice(0, MAX_RELATED)
    .map(({ path, title }) => ({ path, title }))
}

/** The "Related posts" section: wiki-links with escaped labels, since another page's title is untrusted. */
export function relatedSection(related: Related): string {
  if (related.length === 0) return ''
  const links = related.map((page) => `- [[${page.path.replace(/\.md$/, '')}|${wikiLinkLabel(page.title)}]]`)
  return `\n\n${RELATED_HEADING}\n\n${links.join('\n')}`
}
