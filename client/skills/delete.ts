import { defineSkill } from '../runtime/define-skill'
import { parseTargetCommand } from '../runtime/intent-commands'
import { deleteRule } from '../runtime/intent-patterns'
import { pageNavigator } from '../runtime/page-navigation'
import type { SkillContext } from '../runtime/types'
import { pageLinks } from './graph-report'
import { routeOf } from '../../server/knowledge/routes'
import { pageLink } from './page-link'
import { findExactPage, readPage, type PageCandidate, type TargetPage } from './page-target'
import { errorCode } from '../api/errors'

interface Doomed extends TargetPage {
  /** Pages whose links to it will lead nowhere once it is gone. */
  backlinks: string[]
}

/** No page was named exactly: the ones the author may have meant, and nothing else happens. */
interface Unsure {
  candidates: PageCandidate[]
}

function candidatesNote(hint: string, candidates: readonly PageCandidate[]): string {
  if (candidates.length === 0) return `No page is called “${hint}”, and none comes close, so I deleted nothing. Name the page by its exact title or its path (posts/example.md).`
  const list = candidates.map((page) => `- ${pageLink(page.title, page.path)}: \`/delete ${page.path}\``).join('\n')
  return `No page is called exactly “${hint}”, so I deleted nothing. Did you mean one of these?\n\n${list}\n\nSend the command next to the one to delete (you will still confirm).`
}

/** Where to go before the open page is deleted: its folder's index, else the home page; never the page itself. */
async function routeAwayFrom(context: SkillContext, path: string): Promise<string> {
  const folder = path.includes('/') ? path.slice(0, path.lastIndexOf('/')) : ''
  const index = folder ? `${folder}/index.md` : 'index.md'
  if (index === path) return '/'
  return (await context.api.readHash(index, { signal: context.signal }).catch(() => null)) === null ? '/' : routeOf(index)
}

/** Leaves the page before it is deleted, so the author is never left on a 404 with the dev server's error. */
async function leaveIfOpen(context: SkillContext, path: string): Promise<void> {
  const navigator = pageNavigator()
  if (!navigator || navigator.currentFile() !== path) return
  context.progress('Leaving the page before it is deleted…')
  await navigator.go(await routeAwayFrom(context, path))
}

/** delete: find the page named exactly (else ask with candidates) → the author confirms (never auto-accepted) → leave it if open → delete it only if it is still the version shown. */
export const deleteSkill = defineSkill({
  name: 'delete',
  intents: ['delete_article'],
  needsModel: false,
  params: ['path', 'pageHint'],
  commands: [
    { name: 'delete', description: 'Delete a page (after you confirm)', help: '**/delete** a page — delete a post (after you confirm)', hidden: true, order: 80, parse: parseTargetCommand },
  ],
  patterns: { rules: [deleteRule], order: 10 },
  // 2: an inexact name asks with candidates; confirming and deleting are one step, so a decline ends there.
  version: 2,
  title: (inputs) => `Delete ${inputs.params.path ?? inputs.params.pageHint ?? inputs.currentFile ?? 'a page'}`,
  steps: [
    {
      id: 'read',
      title: 'Finding the page',
      async run(context): Promise<Doomed | Unsure> {
        const { path, pageHint } = context.inputs.params
        const found = await findExactPage(context, { path, pageHint }, 'delete')
        if ('candidates' in found) {
          context.say(candidatesNote(pageHint ?? '', found.candidates))
          return found
        }
        const page = await readPage(context, found.path)
        // The backlinks only warn; a graph that cannot be read does not stop the delete.
        const graph = await context.api.graph({ signal: context.signal }).catch(() => null)
        return { ...page, backlinks: graph ? pageLinks(graph, page.path).backlinks : [] }
      },
    },
    {
      id: 'delete',
      title: 'Confirming the delete',
      writesExistingPage: true,
      async run(context): Promise<{ deleted: string } | { declined: string } | null> {
        const found = context.output<Doomed | Unsure>('read')
        if ('candidates' in found) return null
        const page = found
        const count = page.backlinks.length
        const warning = count ? ` ${count} page${count === 1 ? ' links' : 's link'} to it; ${count === 1 ? 'that link' : 'those links'} will lead nowhere.` : ''
        const decision = await context.approve({
          kind: 'delete',
          path: page.path,
          summary: `Delete “${page.title}” (${page.path}).${warning}`,
          before: page.content,
          after: '',
        })
        if (decision.action === 'reject') {
          // The task ends here, as declined: there is no "deleting" step left to show.
          context.progress('Declined: nothing was deleted')
          context.say(`Declined: kept \`${page.path}\`.`)
          return { declined: page.path }
        }
        await leaveIfOpen(context, page.path)
        context.progress('Deleting the page…')
        try {
          await context.api.deleteFile(page.path, page.hash, { signal: context.signal, taskId: context.taskId })
        } catch (error) {
          const code = errorCode(error)
          if (code === 'ERR_STALE') {
            context.say(`\`${page.path}\` changed since I read it, so I deleted nothing. Look at the new version, and ask again if it should still go.`)
            return null
          }
          if (code === 'ERR_NOT_FOUND') {
            context.say(`\`${page.path}\` is already gone; nothing to delete.`)
            context.expectHash(page.path, null)
            return null
          }
          throw error
        }
        context.expectHash(page.path, null)
        context.say(`Deleted \`${page.path}\`.`)
        return { deleted: page.path }
      },
    },
  ],
})
