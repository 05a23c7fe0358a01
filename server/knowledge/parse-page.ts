import { readPage } from './front-matter.js'
import { parseMarkdown, type ParsedHeading } from './parse-blocks.js'
import type { ParsedLink } from './parse-inline.js'
import { attachmentLookup, type AttachmentLookup } from './attachments.js'
import { isAssetTarget } from './wiki-syntax.js'

/** A `[[file.png]]` or `![[file.pdf#page=2|300]]`: a link to a file that is not a page. */
export interface AttachmentLink {
  target: string
  heading: string | undefined
  label: string | undefined
  embed: boolean
  line: number
  lookup: AttachmentLookup | null
  /** The attachment it resolves to, filled in by the index; null when missing. */
  resolved: string | null
}

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
  attachments: AttachmentLink[]
  headings: ParsedHeading[]
}

function countLines(text: string, end: number): number {
  let lines = 1
  for (let index = text.indexOf('\n'); index !== -1 && index < end; index = text.indexOf('\n', index + 1)) lines++
  return lines
}

export function parsePage(path: string, content: string): ParsedPage {
  const { meta, bodyOffset } = readPage(path, content)
  const parsed = parseMarkdown(meta.body, bodyOffset, countLines(content, bodyOffset), path)
  const links: ParsedLink[] = []
  const attachments: AttachmentLink[] = []
  for (const link of parsed.links) {
    if (link.syntax !== 'wiki' || !isAssetTarget(link.target)) links.push(link)
    else {
      const { target, heading, label, embed, line } = link
      attachments.push({ target, heading, label, embed, line, lookup: attachmentLookup(target, path), resolved: null })
    }
  }
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
    attachments,
    headings: parsed.headings,
  }
}
