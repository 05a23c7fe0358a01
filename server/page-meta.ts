import matter from 'gray-matter'
import path from 'node:path'

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

function toStringList(value: unknown): string[] {
  if (typeof value === 'string') return value.split(',').map((item) => item.trim()).filter(Boolean)
  if (Array.isArray(value)) return value.filter((item) => item != null).map(String)
  return []
}

function toDateString(value: unknown): string | undefined {
  if (value instanceof Date && !Number.isNaN(value.getTime())) return value.toISOString().slice(0, 10)
  if (typeof value === 'string' && value.trim()) return value.trim()
  return undefined
}

function parseFrontmatter(content: string): { data: Record<string, unknown>; body: string } {
  try {
    // Passing options keeps gray-matter from caching every string it has ever parsed.
    const parsed = matter(content, {})
    return { data: parsed.data ?? {}, body: parsed.content }
  } catch {
    // Broken YAML: treat the page as having no front matter rather than failing the whole list.
    return { data: {}, body: content }
  }
}

const FIRST_HEADING = /^#\s+(.+?)\s*#*\s*$/m

/** Title, front matter and body of a page: front-matter title, else the first `# heading`, else the file name. */
export function parsePageMeta(relativePath: string, content: string): PageMeta {
  const { data, body } = parseFrontmatter(content)
  const heading = FIRST_HEADING.exec(body)?.[1]
  const fileTitle = path.posix.basename(relativePath, '.md')
  const title =
    (typeof data.title === 'string' && data.title.trim()) ||
    heading ||
    (fileTitle === 'index' ? (relativePath.includes('/') ? path.posix.basename(path.posix.dirname(relativePath)) : 'Home') : fileTitle)
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
