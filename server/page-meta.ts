import path from 'node:path'
import { grayMatter } from './gray-matter.js'
import { atxHeading } from './knowledge/parse-blocks.js'

export interface PageMeta {
  title: string
  frontmatter: Record<string, unknown>
  /** The Markdown after the front matter. */
  body: string
  date?: string
  tags: string[]
  description?: string
  draft: boolean
  aliases: string[]
}

// A fence opening or closing line: up to three spaces, then three or more backticks or tildes.
const FENCE = /^ {0,3}(`{3,}|~{3,})/

/**
 * The text of the first `# Heading` line outside fenced code, without closing '#'s: a shell comment
 * in a code block is not a title. One pass over the lines, so linear.
 */
export function firstHeading(body: string): string | undefined {
  let fence: string | null = null
  for (let start = 0; start <= body.length; ) {
    const newline = body.indexOf('\n', start)
    const end = newline === -1 ? body.length : newline
    const line = body.slice(start, body.charCodeAt(end - 1) === 13 ? end - 1 : end)
    start = end + 1
    const marker = line.length >= 3 ? FENCE.exec(line)?.[1] : undefined
    if (fence !== null) {
      // A fence closes with the same character, at least as long, and nothing after it.
      if (marker && marker[0] === fence[0] && marker.length >= fence.length && !line.slice(line.indexOf(marker) + marker.length).trim()) fence = null
      continue
    }
    if (marker) {
      // A backtick fence whose info string has a backtick is inline code, not a fence.
      if (!(marker[0] === '`' && line.slice(line.indexOf(marker) + marker.length).includes('`'))) fence = marker
      continue
    }
    const heading = line.charCodeAt(0) === 35 || line.startsWith(' ') ? atxHeading(line) : null
    if (heading?.level === 1 && heading.content) return heading.content
  }
  return undefined
}

export function toStringList(value: unknown): string[] {
  if (typeof value === 'string') return value.split(',').map((item) => item.trim()).filter(Boolean)
  if (Array.isArray(value)) return value.filter((item) => typeof item === 'string' || typeof item === 'number').map(String)
  return []
}

const pad = (value: number, width: number) => String(value).padStart(width, '0')

export function toDateString(value: unknown): string | undefined {
  if (value instanceof Date && !Number.isNaN(value.getTime())) {
    const year = value.getUTCFullYear()
    // What toISOString().slice(0, 10) gives for four-digit years, at a fraction of its cost.
    if (year >= 0 && year <= 9999) return `${pad(year, 4)}-${pad(value.getUTCMonth() + 1, 2)}-${pad(value.getUTCDate(), 2)}`
    return value.toISOString().slice(0, 10)
  }
  if (typeof value === 'string' && value.trim()) return value.trim()
  return undefined
}

/** The title a page gets from its file name: 'posts/foo.md' → 'foo'; an index page takes its folder's name. */
export function fileTitle(relativePath: string): string {
  const name = path.posix.basename(relativePath, '.md')
  if (name !== 'index') return name
  return relativePath.includes('/') ? path.posix.basename(path.posix.dirname(relativePath)) : 'Home'
}

/** A page's title: its first real `# heading` (never inside code), else front-matter `title`, else the file name. */
export function pageTitle(relativePath: string, data: Record<string, unknown>, body: string): string {
  return firstHeading(body) || (typeof data.title === 'string' && data.title.trim()) || fileTitle(relativePath)
}

/** A page's meta from its parsed front matter and body; the title as pageTitle gives it. */
export function pageMetaOf(relativePath: string, data: Record<string, unknown>, body: string): PageMeta {
  const title = pageTitle(relativePath, data, body)
  return {
    title,
    frontmatter: data,
    body,
    date: toDateString(data.date),
    tags: toStringList(data.tags),
    description: typeof data.description === 'string' ? data.description : undefined,
    draft: data.draft === true,
    aliases: toStringList(data.aliases),
  }
}

function refuseToEvaluate(): never {
  throw new Error('only YAML front matter is read')
}

// Passing options also keeps gray-matter from caching every string it has ever parsed.
// Its `---js` engine runs eval: a page must never run code in the dev server, so no engine but YAML.
const YAML_ONLY = { language: 'yaml', engines: { javascript: refuseToEvaluate, js: refuseToEvaluate, coffee: refuseToEvaluate, json: refuseToEvaluate } }

function isYamlFrontMatter(content: string): boolean {
  if (!content.startsWith('---')) return true
  const language = grayMatter().language(content, YAML_ONLY).name.toLowerCase()
  return language === '' || language === 'yaml' || language === 'yml'
}

// YAML aliases share one value among many places: a few hundred bytes of nested `*alias` lists
// expand to gigabytes once anything walks them. Front matter that big is not front matter.
const MAX_FRONT_MATTER_VALUES = 10_000

/** Whether walking `value` (shared parts counted each time they appear) stays under the limit. */
function isReasonablySized(value: unknown): boolean {
  let budget = MAX_FRONT_MATTER_VALUES
  const walk = (item: unknown): boolean => {
    if (--budget < 0) return false
    if (Array.isArray(item)) return item.every(walk)
    if (item !== null && typeof item === 'object' && !(item instanceof Date)) return Object.values(item).every(walk)
    return true
  }
  return walk(value)
}

// Real front matter is a few hundred bytes; past these sizes js-yaml's own parse starts to block the server.
const MAX_FRONT_MATTER_CHARACTERS = 256 * 1024
const MAX_FRONT_MATTER_ALIASES = 100
// An alias `*name` where YAML allows one: at a line start or after a blank, '[', '{', ',' or ':'.
const ALIAS = /(?:^|[\s[{,:])\*[^\s[\]{},]/g

/** Where gray-matter would end the front matter and start the body; null when there is none. */
function frontMatterBounds(content: string): { end: number; bodyStart: number } | null {
  if (!content.startsWith('---') || content.charCodeAt(3) === 45) return null
  const close = content.indexOf('\n---', 3)
  if (close === -1) return { end: content.length, bodyStart: content.length }
  let bodyStart = close + 4
  if (content.charCodeAt(bodyStart) === 13) bodyStart++
  if (content.charCodeAt(bodyStart) === 10) bodyStart++
  return { end: close, bodyStart }
}

/** Counts aliases up to `limit`, in one pass and without building the matches. */
function countAliases(text: string, limit: number): number {
  let count = 0
  ALIAS.lastIndex = 0
  while (count <= limit && ALIAS.test(text)) count++
  return count
}

function parseFrontmatter(content: string): { data: Record<string, unknown>; body: string } {
  // Front matter in another language (`---js`, `---coffee`) is left as if the page had none.
  if (!isYamlFrontMatter(content)) return { data: {}, body: content }
  const bounds = frontMatterBounds(content)
  if (bounds) {
    const front = content.slice(0, bounds.end)
    // Too big, or aliases enough for a bomb: refused before js-yaml reads a byte of it.
    if (front.length > MAX_FRONT_MATTER_CHARACTERS || countAliases(front, MAX_FRONT_MATTER_ALIASES) > MAX_FRONT_MATTER_ALIASES) {
      return { data: {}, body: content.slice(bounds.bodyStart) }
    }
  }
  try {
    const parsed = grayMatter()(content, YAML_ONLY)
    // Still too big to be real once read (nested aliases): read the page as if it had no front matter.
    if (!isReasonablySized(parsed.data)) return { data: {}, body: parsed.content }
    return { data: parsed.data ?? {}, body: parsed.content }
  } catch {
    // Broken YAML: treat the page as having no front matter rather than failing the whole list.
    return { data: {}, body: content }
  }
}

/** Title, front matter and body of a page: the first real `# heading`, else front-matter title, else the file name. */
export function parsePageMeta(relativePath: string, content: string): PageMeta {
  const { data, body } = parseFrontmatter(content)
  return pageMetaOf(relativePath, data, body)
}
