import { neutralizedNotice } from '../skills/sanitize-markdown'
import { pagePath } from '../runtime/page-path'
import { defineTool, type ToolContext } from '../runtime/define-tool'
import { staleError, type ReadPage } from '../runtime/page-operations'
import { applyEdits, type TextEdit } from './apply-edits'

interface Args {
  path: string
  edits: TextEdit[]
}

/** The version the model's edits refer to: the one it read in this run, else the page now, if it is still the version read before. */
async function versionRead(path: string, { pages }: ToolContext): Promise<ReadPage> {
  const known = pages.lastRead(path)
  if (known) return known
  const expected = pages.expectedHash(path)
  const fresh = await pages.readPage(path)
  if (expected !== null && fresh.hash !== expected) throw staleError(path)
  return fresh
}

export const editPage = defineTool({
  name: 'edit_page',
  description:
    "Changes an existing page by exact-match replacements in its Markdown source: each oldText must appear exactly once in the page as read_page returned it. The author approves the change; everything else in the page stays byte-identical.",
  category: 'write',
  parameters: {
    type: 'object',
    properties: {
      path: { type: 'string', minLength: 4, maxLength: 300 },
      edits: {
        type: 'array',
        minItems: 1,
        maxItems: 20,
        items: {
          type: 'object',
          properties: { oldText: { type: 'string', minLength: 1 }, newText: { type: 'string' } },
          required: ['oldText', 'newText'],
        },
      },
    },
    required: ['path', 'edits'],
  },
  async execute({ path: asked, edits }: Args, context) {
    const path = pagePath(asked)
    const page = await versionRead(path, context)
    const applied = applyEdits(page.content, edits)
    const decision = await context.approve({
      kind: 'edit',
      askReason: true,
      path,
      summary: `Edit ${path} (${edits.length} change${edits.length === 1 ? '' : 's'})`,
      before: applied.before,
      after: applied.after,
      ...(applied.neutralized.length ? { warning: neutralizedNotice(applied.neutralized) } : {}),
    })
    if (decision.action === 'reject') return { status: 'rejected', reason: `rejected by the author (${decision.reason ?? 'no reason given'}); the page is unchanged` }
    const content = decision.after === undefined ? applied.content : page.content.slice(0, applied.start) + decision.after + page.content.slice(applied.end)
    await context.pages.updatePage(path, content)
    return { status: 'applied', path, ...(decision.after !== undefined && decision.after !== applied.after ? { note: 'the author adjusted your text before accepting' } : {}) }
  },
  describe: ({ path, edits }, result) => `Edited ${path}${Array.isArray(edits) ? ` (${edits.length} change${edits.length === 1 ? '' : 's'})` : ''}${result && result.status === 'rejected' ? ' — rejected' : ''}`,
})
