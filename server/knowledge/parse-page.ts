import { readPage } from './front-matter.js'
import { parseMarkdown, type ParsedHeading } from './parse-blocks.js'
import type { ParsedLink } from './parse-inline.js'

/** What the index keeps about one page. */
export interface ParsedPage {
  path: string
  content: string
  /** Where the body (after the front matter) starts in `content`. */
  bodyOffset: number
  title: string
  aliases: string[]
  tags: string[]
  draft: boolean
  date: string | undefined
  description: string | undefined
  /** Front-matter `order`, for the sidebar. */
  order: number | undefined
  links: ParsedLink[]
  headings: ParsedHeading[]
}

function countLines(text: string, end: number): number {
  let lines = 1
  for (let index = text.indexOf('\n'); index !== -1 && index < end; index = text.indexOf('\n', index + 1)) lines++
  return lines
}

export function parsePage(path: string, content: string): ParsedPage {
  const { meta, bodyOffset } = readPage(path, content)
  const { links, headings } = parseMarkdown(meta.body, bodyOffset, countLines(content, bodyOffset), path)
  const order = meta.frontmatter.order
  return {
    path,
    content,
    bodyOffset,
    title: meta.title,
    aliases: meta.aliases,
    tags: meta.tags,
    draft: meta.draft,
    date: meta.date,
    description: meta.description,
    order: typeof order === 'number' && Number.isFinite(order) ? order : undefined,
    links,
    headings,
  }
}
