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

export const FIRST_HEADING = /^#\s+(.+?)\s*#*\s*$/m

export function toStringList(value: unknown): string[] {
  if (typeof value === 'string') return value.split(',').map((item) => item.trim()).filter(Boolean)
  if (Array.isArray(value)) return value.filter((item) => item != null).map(String)
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

/** A page's meta from its parsed front matter and body: front-matter title, else the first `# heading`, else the file name. */
export function pageMetaOf(relativePath: string, data: Record<string, unknown>, body: string): PageMeta {
  const title = (typeof data.title === 'string' && data.title.trim()) || FIRST_HEADING.exec(body)?.[1] || fileTitle(relativePath)
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
  const language = matter.language(content, YAML_ONLY).name.toLowerCase()
  return language === '' || language === 'yaml' || language === 'yml'
}

function parseFrontmatter(content: string): { data: Record<string, unknown>; body: string } {
  // Front matter in another language (`---js`, `---coffee`) is left as if the page had none.
  if (!isYamlFrontMatter(content)) return { data: {}, body: content }
  try {
    const parsed = matter(content, YAML_ONLY)
    return { data: parsed.data ?? {}, body: parsed.content }
  } catch {
    // Broken YAML: treat the page as having no front matter rather than failing the whole list.
    return { data: {}, body: content }
  }
}

/** Title, front matter and body of a page: front-matter title, else the first `# heading`, else the file name. */
export function parsePageMeta(relativePath: string, content: string): PageMeta {
  const { data, body } = parseFrontmatter(content)
  return pageMetaOf(relativePath, data, body)
}
