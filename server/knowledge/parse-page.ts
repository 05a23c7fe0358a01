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
  /** The file's text; null in an index that reads it again from disk when needed (see KnowledgeIndex.load). */
  content: string | null
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

/**
 * A copy of `text` that shares no memory with the file it was cut from. V8 keeps a slice of 13 or
 * more characters as a view into its parent, so one kept title or link target would keep the whole
 * page's text alive. A JSON round trip makes a plain string of its own, half the size of the copy
 * that appending a character and slicing it off again makes (a copy plus a view into it).
 */
const own = (text: string): string => (text.length < 13 ? text : (JSON.parse(JSON.stringify(text)) as string))
const ownAll = (texts: string[]): string[] => texts.map(own)
const ownMaybe = (text: string | undefined): string | undefined => (text === undefined ? undefined : own(text))

/** The parsed link, its text copied out of the page's (see `own`), in place: the link was made for this page alone. */
function ownLink<T extends { target: string; heading: string | undefined; label: string | undefined }>(link: T): T {
  link.target = own(link.target)
  link.heading = ownMaybe(link.heading)
  link.label = ownMaybe(link.label)
  return link
}

/** The headings, their text copied out of the page's, in place (they were made for this page alone). */
function ownHeadings(headings: ParsedHeading[]): ParsedHeading[] {
  for (const heading of headings) {
    heading.text = own(heading.text)
    heading.id = ownMaybe(heading.id)
  }
  return headings
}

export function parsePage(path: string, content: string): ParsedPage {
  const { meta, bodyOffset } = readPage(path, content)
  const parsed = parseMarkdown(meta.body, bodyOffset, countLines(content, bodyOffset))
  const links: ParsedLink[] = []
  const attachments: AttachmentLink[] = []
  for (const link of parsed.links) {
    if (link.syntax !== 'wiki' || !isAssetTarget(link.target)) {
      links.push(ownLink(link))
    } else {
      const { target, heading, label, embed, line } = ownLink(link)
      const lookup = attachmentLookup(target, path)
      attachments.push({ target, heading, label, embed, line, lookup: lookup && { ...lookup, key: own(lookup.key) }, resolved: null })
    }
  }
  const order = meta.frontmatter.order
  return {
    path,
    content,
    bodyOffset,
    title: own(meta.title),
    aliases: ownAll(meta.aliases),
    tags: ownAll(meta.tags),
    draft: meta.draft,
    date: ownMaybe(meta.date),
    description: ownMaybe(meta.description),
    order: typeof order === 'number' && Number.isFinite(order) ? order : undefined,
    links,
    attachments,
    headings: ownHeadings(parsed.headings),
  }
}
