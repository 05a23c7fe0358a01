// Which page a request means (a path, a title to look up, or the open page), read with its hash.
import type { SkillContext } from '../runtime/types'
import { SkillError, errorCode } from '../api/errors'

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
  const path = await findTargetPath(context, request, purpose)
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
