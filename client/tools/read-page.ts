import { defineTool } from '../runtime/define-tool'
import { pageTitle } from './page-title'

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
  async execute({ path, startLine, endLine }: Args, { pages }) {
    const page = await pages.readPage(path)
    const lines = page.content.split('\n')
    const from = Math.min(startLine ?? 1, lines.length)
    const to = Math.max(from, Math.min(endLine ?? lines.length, lines.length))
    const content = startLine === undefined && endLine === undefined ? page.content : lines.slice(from - 1, to).join('\n')
    return { path, title: pageTitle(page.content, path), content, totalLines: lines.length }
  },
  describe: ({ path, startLine, endLine }) => `Read ${path}${startLine || endLine ? ` (lines ${startLine ?? 1}–${endLine ?? 'end'})` : ''}`,
})
