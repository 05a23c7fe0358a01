// Small Markdown helpers the skills share: front matter, code blocks, titles and file names.
import slugify from 'slugify'

export interface FrontMatter {
  title: string
  date?: string
  tags?: string[]
  description?: string
  draft?: boolean
}

/**
 * A YAML double-quoted string (JSON quoting, which YAML reads as it is), never raw text. A `<` that
 * could open a tag becomes `‹`: VitePress's theme renders some front-matter values (hero, features)
 * as HTML, and the server's content guard refuses tags in front matter.
 */
export function yamlString(value: string): string {
  return JSON.stringify(value.replace(/<(?=[A-Za-z/!?])/g, '‹'))
}

/**
 * Another page's title as the label of a `[[wiki-link|label]]`: the title is untrusted text, so it
 * cannot close the link (`]]`, `|`), open a tag or a Vue interpolation; VitePress keeps entities.
 */
export function wikiLinkLabel(title: string): string {
  return title
    .replace(/[\[\]|\s]+/g, ' ')
    .replace(/<(?=[A-Za-z/!?])/g, '&lt;')
    .replace(/\{/g, '&#123;')
    .trim()
}

/** Front matter as YAML; strings are JSON-quoted, which YAML reads as they are. */
export function composeFrontMatter(fields: FrontMatter): string {
  const lines = [`title: ${yamlString(fields.title)}`]
  if (fields.date) lines.push(`date: ${fields.date}`)
  if (fields.tags?.length) lines.push(`tags: [${fields.tags.map(yamlString).join(', ')}]`)
  if (fields.description) lines.push(`description: ${yamlString(fields.description)}`)
  if (fields.draft) lines.push('draft: true')
  return `---\n${lines.join('\n')}\n---\n`
}

/** A front-matter block at the very start of a page; group 1 is its YAML. */
export const FRONT_MATTER = /^---\r?\n([\s\S]*?)\r?\n---[ \t]*(?:\r?\n|$)/

/** The page without its front matter. */
export function stripFrontMatter(source: string): string {
  return source.replace(FRONT_MATTER, '')
}

/** Sets one front-matter field (adding the block if the page has none). */
export function setFrontMatterField(source: string, key: string, value: string): string {
  const line = `${key}: ${yamlString(value)}`
  const match = FRONT_MATTER.exec(source)
  if (!match) return `---\n${line}\n---\n${source}`
  // The field's line and any indented continuation lines of a multi-line value.
  const escaped = key.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
  const fieldPattern = new RegExp(`^${escaped}:.*(?:\\n[ \\t]+.*)*$`, 'm')
  const block = fieldPattern.test(match[1]!) ? match[1]!.replace(fieldPattern, line) : `${match[1]}\n${line}`
  return `---\n${block}\n---\n${source.slice(match[0].length)}`
}

/** A file name for a title; titles with no Latin letters (e.g. Chinese) get a dated name. */
export function slugForTitle(title: string, now = new Date()): string {
  const slug = slugify(title, { lower: true, strict: true }).slice(0, 60).replace(/-+$/, '')
  return slug || `post-${now.toISOString().slice(0, 10)}-${now.getTime().toString(36).slice(-4)}`
}

export function today(now = new Date()): string {
  return now.toISOString().slice(0, 10)
}

/** The fenced code blocks of a page, in order. */
export function codeBlocks(source: string): { language: string; code: string }[] {
  return [...source.matchAll(/^(```+|~~~+)([\w+-]*)[^\n]*\n([\s\S]*?)^\1\s*$/gm)].map((match) => ({
    language: match[2] ?? '',
    code: match[3] ?? '',
  }))
}
