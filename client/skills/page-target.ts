// Which page a request means (a path, a title to look up, or the open page), read with its hash.
import type { PageSummary } from '../../plugin/protocol'
import type { SkillContext } from '../runtime/types'
import { SkillError, errorCode } from '../api/errors'
import { slugForTitle } from './post-place'

export interface PageRequest {
  path?: string
  pageHint?: string
}

/** A page as a task read it: the hash is what its later write or delete must match. */
export interface TargetPage {
  path: string
  hash: string
  /**
   * The page as read, kept in the checkpoint: a later step changes exactly this version (the one
   * `hash` names) or shows it to the author, so a hash and offsets would not be enough.
   */
  content: string
  title: string
  /** The front-matter description, '' when there is none. */
  description: string
}

/** The page path: the explicit one, else the best search hit for the hint, else the open page. */
export async function findTargetPath(context: SkillContext, request: PageRequest, purpose: string): Promise<string> {
  if (request.path) return request.path
  if (request.pageHint) {
    const { results } = await context.api.search(request.pageHint, { signal: context.signal })
    const best = results[0]
    if (!best) {
      throw new SkillError(
        'ERR_PAGE_NOT_FOUND',
        `No page matches "${request.pageHint}". Name it by its title or its path (posts/example.md), or open it and ask me to ${purpose} "this page".`,
      )
    }
    return best.path
  }
  if (context.inputs.currentFile) return context.inputs.currentFile
  throw new SkillError('ERR_NO_PAGE', `Open the page you want me to ${purpose}, or name it (its title or posts/example.md), then ask again.`)
}

/** A page a request may have meant, offered to the author instead of a guess. */
export interface PageCandidate {
  path: string
  title: string
}

export type ExactPage = { path: string } | { candidates: PageCandidate[] }

const MAX_CANDIDATES = 5

/** Text compared for exactness: no case, no quotes or marks, single spaces. */
function comparable(text: string): string {
  return text.normalize('NFKC').toLowerCase().replace(/[\p{P}\p{S}\s]+/gu, ' ').trim()
}

/** The pages a hint names exactly: by title, by path (with or without .md) or by file name, also as the slug of its words. */
export async function exactMatches(pages: readonly Pick<PageSummary, 'path' | 'title'>[], hint: string): Promise<PageCandidate[]> {
  const wanted = comparable(hint)
  const slug = await slugForTitle(hint).catch(() => '')
  const bare = hint.trim().replace(/^\.?\//, '').replace(/\.md$/i, '')
  return pages
    .filter((page) => {
      const name = page.path.replace(/\.md$/, '')
      const file = name.slice(name.lastIndexOf('/') + 1)
      return comparable(page.title) === wanted || name === bare || file === bare || (slug !== '' && file === slug)
    })
    .map(({ path, title }) => ({ path, title }))
}

/**
 * The page a destructive request names, never a guess: the explicit path, else the one page whose
 * title, path or file name is exactly the hint, else the open page when nothing was named. Anything
 * less than one exact match gives the candidates to ask about: the exact ones, or the closest search hits.
 */
export async function findExactPage(context: SkillContext, request: PageRequest, purpose: string): Promise<ExactPage> {
  if (request.path) return { path: request.path }
  if (!request.pageHint) return { path: await findTargetPath(context, request, purpose) }
  const { pages } = await context.api.listPages({ signal: context.signal })
  const exact = await exactMatches(pages, request.pageHint)
  if (exact.length === 1) return { path: exact[0]!.path }
  if (exact.length > 1) return { candidates: exact.slice(0, MAX_CANDIDATES) }
  const { results } = await context.api.search(request.pageHint, { signal: context.signal })
  // The index can lag a deletion by a moment: only pages that still exist are offered.
  const existing = new Set(pages.map((page) => page.path))
  return { candidates: results.filter((result) => existing.has(result.path)).slice(0, MAX_CANDIDATES).map(({ path, title }) => ({ path, title })) }
}

/** The first `# Title` line's text without closing '#'s; read by hand, as regular expressions for it backtrack badly on long blank runs. */
function headingTitle(content: string, path: string): string {
  const line = /^#[ \t]+(\S.*)$/m.exec(content)?.[1]
  if (line === undefined) return path.replace(/^.*\//, '').replace(/\.md$/, '')
  const isBlank = (at: number) => line.charCodeAt(at) === 32 || line.charCodeAt(at) === 9
  let end = line.length
  while (end > 0 && isBlank(end - 1)) end--
  let closing = end
  while (closing > 0 && line.charCodeAt(closing - 1) === 35) closing--
  if (closing > 0 && closing < end && isBlank(closing - 1)) {
    end = closing
    while (end > 0 && isBlank(end - 1)) end--
  }
  return line.slice(0, end)
}

/** Reads the target page; the title and description come from the server's own front-matter parse. */
export async function readTargetPage(context: SkillContext, request: PageRequest, purpose: string): Promise<TargetPage> {
  return readPage(context, await findTargetPath(context, request, purpose))
}

/** Reads one page by path, with its hash for a later write or delete. */
export async function readPage(context: SkillContext, path: string): Promise<TargetPage> {
  let file
  try {
    file = await context.api.readFile(path, { signal: context.signal })
  } catch (error) {
    if (errorCode(error) !== 'ERR_NOT_FOUND') throw error
    throw new SkillError('ERR_PAGE_NOT_FOUND', `There is no page ${path}. Check the path, or name the page by its title.`)
  }
  const { pages } = await context.api.listPages({ signal: context.signal }).catch(() => ({ pages: [] }))
  const summary = pages.find((page) => page.path === path)
  context.expectHash(path, file.hash)
  return {
    path,
    hash: file.hash,
    content: file.content,
    title: summary?.title || headingTitle(file.content, path),
    description: summary?.description ?? '',
  }
}
