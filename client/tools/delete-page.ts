import { pagePath } from '../runtime/page-path'
import { defineTool } from '../runtime/define-tool'

interface Args {
  path: string
}

export const deletePage = defineTool({
  name: 'delete_page',
  description: 'Deletes a page. The author is always asked first.',
  category: 'destructive',
  parameters: {
    type: 'object',
    properties: { path: { type: 'string', minLength: 4, maxLength: 300 } },
    required: ['path'],
  },
  async execute({ path: asked }: Args, context) {
    const path = pagePath(asked)
    const page = context.pages.lastRead(path) ?? (await context.pages.readPage(path))
    const decision = await context.approve({ kind: 'delete', path, summary: `Delete ${path}`, before: page.content, after: '', askReason: true })
    if (decision.action === 'reject') return { status: 'rejected', reason: `rejected by the author (${decision.reason ?? 'no reason given'}); the page is kept` }
    await context.pages.deletePage(path)
    return { status: 'deleted', path }
  },
  describe: ({ path }, result) => `Deleted ${path}${result && result.status === 'rejected' ? ' — rejected' : ''}`,
})
