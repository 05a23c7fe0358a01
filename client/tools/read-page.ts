import { defineTool } from '../runtime/define-tool'
import { pagePath } from '../runtime/page-path'
import { pageTitle } from './page-title'

/** About 8k tokens: a longer page comes in parts, so one read cannot fill the model's context. */
export const MAX_READ_CHARS = 30_000

interface Args {
  path: string
  startLine?: number
  endLine?: number
}

export const readPage = defineTool({
  name: 'read_page',
  description: "Reads a page's Markdown source (front matter included), whole or lines startLine..endLine (1-based, inclusive). Read a page before editing it.",
  category: 'read',
  parameters: {
    type: 'object',
    properties: {
      path: { type: 'string', minLength: 4, maxLength: 300, description: 'The page path, e.g. "posts/atomic-file-writes.md".' },
      startLine: { type: 'integer', minimum: 1 },
      endLine: { type: 'integer', minimum: 1 },
    },
    required: ['path'],
  },
  async execute(args: Args, { pages }) {
    const path = pagePath(args.path)
    const page = await pages.readPage(path)
    const lines = page.content.split('\n')
    const from = Math.min(args.startLine ?? 1, lines.length)
    let to = Math.max(from, Math.min(args.endLine ?? lines.length, lines.length))
    // Whole lines up to the budget (at least one), so an edit can still quote them exactly.
    let size = 0
    for (let line = from; line <= to; line++) {
      size += lines[line - 1]!.length + 1
      if (size > MAX_READ_CHARS && line > from) {
        to = line - 1
        break
      }
    }
    const whole = from === 1 && to === lines.length
    const content = whole ? page.content : lines.slice(from - 1, to).join('\n')
    const more = to < lines.length && args.endLine === undefined ? { truncated: true, nextLine: to + 1 } : {}
    return { path, title: pageTitle(page.content, path), content, totalLines: lines.length, ...more }
  },
  describe: ({ path, startLine, endLine }) => `Read ${path}${startLine || endLine ? ` (lines ${startLine ?? 1}–${endLine ?? 'end'})` : ''}`,
})
