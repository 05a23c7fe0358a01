import { defineTool } from '../runtime/define-tool'

interface Args {
  folder?: string
  tag?: string
}

export const listPages = defineTool({
  name: 'list_pages',
  description: "Lists the blog's pages with title, tags, date and draft flag; optionally only one folder or one tag.",
  category: 'read',
  parameters: {
    type: 'object',
    properties: {
      folder: { type: 'string', maxLength: 200, description: 'Only pages under this folder, e.g. "posts".' },
      tag: { type: 'string', maxLength: 100, description: 'Only pages with this tag.' },
    },
  },
  async execute({ folder, tag }: Args, { api, signal }) {
    const prefix = folder ? `${folder.replace(/^\/+|\/+$/g, '')}/` : ''
    const { pages } = await api.listPages({ signal })
    return pages
      .filter((page) => page.path.startsWith(prefix) && (tag === undefined || page.tags.includes(tag)))
      .map(({ path, title, tags, date, draft }) => ({ path, title, tags, date: date ?? null, draft }))
  },
  describe: ({ folder, tag }, result) =>
    `Listed pages${folder ? ` in ${folder}` : ''}${tag ? ` tagged ${tag}` : ''}${result ? ` — ${result.length}` : ''}`,
})
