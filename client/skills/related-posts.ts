// The blog's posts related to a new one: the words of its topic, title and section headings (Chinese
// and Japanese as character pairs) searched one by one, and the pages that share the rarest of them
// ranked first, pages in the post's language before others.
import type { SearchResult } from '../../plugin/protocol'
import type { SkillContext } from '../runtime/types'
import { wikiLinkLabel } from './markdown'
import { requestLanguage } from './post-place'
import { termsOf } from './prose'

export type Related = Pick<SearchResult, 'path' | 'title'>[]

export const RELATED_HEADING = '## Related posts'
const MAX_RELATED = 5
/** Words searched for at most: a title and a few headings rarely have more that matter. */
const MAX_TERMS = 24
// A page in the post's own language is the likelier reader's next page.
const SAME_LANGUAGE_BOOST = 1.5
// A page that shares one common word is not related; one that comes close to the best match is.
const MIN_SHARED_TERMS = 2
const MIN_SHARE_OF_BEST = 0.35

/** A folder's listing page is not a post to read next. */
function isListing(path: string): boolean {
  return path === 'index.md' || path.endsWith('/index.md')
}

/**
 * Searches the blog for each word of `texts` and scores every page by the words it shares, a rare
 * word weighing more than a common one (inverse document frequency). Pages that share at least two
 * words and come within reach of the best one are related; those in the language of `language` first.
 */
export async function findRelated(context: SkillContext, texts: readonly string[], language: string): Promise<Related> {
  const terms = [...new Set(termsOf(texts.join('\n')))].slice(0, MAX_TERMS)
  if (terms.length === 0) return []
  const { signal } = context
  // Side by side: the draft page waits for these.
  const [{ pages }, ...answers] = await Promise.all([context.api.listPages({ signal }), ...terms.map((term) => context.api.search(term, { signal }))])
  const total = Math.max(1, pages.filter((page) => !isListing(page.path)).length)
  const found = new Map<string, { title: string; score: number; shared: number }>()
  for (const { results } of answers) {
    const hits = results.filter((result) => !isListing(result.path))
    const weight = Math.log(1 + total / Math.max(1, hits.length))
    for (const hit of hits) {
      const entry = found.get(hit.path) ?? { title: hit.title, score: 0, shared: 0 }
      entry.score += weight
      entry.shared++
      found.set(hit.path, entry)
    }
  }
  const wanted = requestLanguage(language)
  const ranked = [...found]
    .filter(([, entry]) => entry.shared >= Math.min(MIN_SHARED_TERMS, terms.length))
    .map(([path, { title, score }]) => ({ path, title, score: requestLanguage(title) === wanted ? score * SAME_LANGUAGE_BOOST : score }))
    .sort((left, right) => right.score - left.score || left.path.localeCompare(right.path))
  const best = ranked[0]?.score ?? 0
  return ranked
    .filter((page) => page.score >= best * MIN_SHARE_OF_BEST)
    .slice(0, MAX_RELATED)
    .map(({ path, title }) => ({ path, title }))
}

/** The "Related posts" section: wiki-links with escaped labels, since another page's title is untrusted. */
export function relatedSection(related: Related): string {
  if (related.length === 0) return ''
  const links = related.map((page) => `- [[${page.path.replace(/\.md$/, '')}|${wikiLinkLabel(page.title)}]]`)
  return `\n\n${RELATED_HEADING}\n\n${links.join('\n')}`
}
