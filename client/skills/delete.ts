import { defineSkill } from '../runtime/define-skill'
import { parseTargetCommand } from '../runtime/intent-commands'
import { deleteRule } from '../runtime/intent-patterns'
import type { Skill } from '../runtime/types'
import { pageLinks } from './graph-report'
import { readTargetPage, type TargetPage } from './page-target'
import { errorCode } from '../api/errors'

interface Doomed extends TargetPage {
  /** Pages whose links to it will lead nowhere once it is gone. */
  backlinks: string[]
}

/** delete: read the page → the author confirms (never auto-accepted) → delete it only if it is still the version shown. */
export const deleteSkill = defineSkill({
  name: 'delete',
  intents: ['delete_article'],
  needsModel: false,
  params: ['path', 'pageHint'],
  commands: [
    { name: 'delete', description: 'Delete a page (after you confirm)', help: '**/delete** a page — delete a post (after you confirm)', hidden: true, order: 80, parse: parseTargetCommand },
  ],
  patterns: { rules: [deleteRule], order: 10 },
  title: (inputs) => `Delete ${inputs.params.path ?? inputs.params.pageHint ?? inputs.currentFile ?? 'a page'}`,
  steps: [
    {
      id: 'read',
      title: 'Reading the page',
      async run(context): Promise<Doomed> {
        const { path, pageHint } = context.inputs.params
        const page = await readTargetPage(context, { path, pageHint }, 'delete')
        // The backlinks only warn; a graph that cannot be read does not stop the delete.
        const graph = await context.api.graph({ signal: context.signal }).catch(() => null)
        return { ...page, backlinks: graph ? pageLinks(graph, page.path).backlinks : [] }
      },
    },
    {
      id: 'confirm',
      title: 'Waiting for your confirmation',
      async run(context): Promise<{ confirmed: boolean }> {
        const page = context.output<Doomed>('read')
        const count = page.backlinks.length
        const warning = count ? ` ${count} page${count === 1 ? ' links' : 's link'} to it; ${count === 1 ? 'that link' : 'those links'} will lead nowhere.` : ''
        const decision = await context.approve({
          kind: 'delete',
          path: page.path,
          summary: `Delete “${page.title}” (${page.path}).${warning}`,
          before: page.content,
          after: '',
        })
        if (decision.action === 'reject') context.say(`Kept \`${page.path}\`.`)
        return { confirmed: decision.action === 'accept' }
      },
    },
    {
      id: 'delete',
      title: 'Deleting the page',
      writesExistingPage: true,
      async run(context): Promise<{ deleted: string } | null> {
        const page = context.output<Doomed>('read')
        if (!context.output<{ confirmed: boolean }>('confirm').confirmed) return null
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
