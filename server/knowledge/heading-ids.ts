import type { ParsedHeading } from './parse-blocks.js'
import { slugify } from './slug.js'
import { nameKey } from './wiki-syntax.js'

/** A block id as Obsidian writes it after `^`: letters, digits and '-'. */
export const BLOCK_ID = /^\^([A-Za-z0-9-]+)$/

/**
 * The ids VitePress gives a page's headings, in order: markdown-it-anchor's rule, an explicit
 * `{#id}` as written, else the slug, and a repeated one gets '-1', '-2', … (the first free one).
 */
export function headingIds(headings: readonly ParsedHeading[], slug: (text: string) => string = slugify): string[] {
  const taken = new Set<string>()
  return headings.map((heading) => {
    const base = heading.id ?? slug(heading.text)
    let id = base
    for (let suffix = 1; taken.has(id); suffix++) id = `${base}-${suffix}`
    taken.add(id)
    return id
  })
}

/**
 * The element id a `#fragment` of a wiki-link leads to on a page with these headings: a block
 * reference `^id` as it is; a heading by its text (exact, then case- and space-insensitive, then
 * by slug), the first of equal ones, like Obsidian. Unknown headings get their slug.
 */
export function fragmentId(headings: readonly ParsedHeading[], fragment: string, slug: (text: string) => string = slugify): string {
  if (BLOCK_ID.test(fragment)) return fragment
  const ids = headingIds(headings, slug)
  let at = headings.findIndex((heading) => heading.text === fragment)
  if (at === -1) {
    const key = nameKey(fragment)
    at = headings.findIndex((heading) => nameKey(heading.text) === key)
  }
  if (at === -1) {
    const wanted = slug(fragment)
    at = ids.findIndex((id, index) => id === wanted || slug(headings[index]!.text) === wanted)
  }
  return at === -1 ? slug(fragment) : ids[at]!
}

/** Whether two lists of headings give the same texts and ids, so links into them render alike. */
export function sameHeadings(left: readonly ParsedHeading[], right: readonly ParsedHeading[]): boolean {
  return left.length === right.length && left.every((heading, index) => heading.text === right[index]!.text && heading.id === right[index]!.id)
}
