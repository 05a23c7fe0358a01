import { defineTool } from '../runtime/define-tool'

interface Args {
  query: string
  limit?: number
}

export const searchPages = defineTool({
  name: 'search_pages',
  description: "Full-text search over the blog's pages. Returns the best matches with a snippet each.",
  category: 'read',
  parameters: {
    type: 'object',
    properties: {
      query: { type: 'string', minLength: 1, maxLength: 500, description: 'Words to look for.' },
      limit: { type: 'integer', minimum: 1, maximum: 20, description: 'At most this many results (default 8).' },
    },
    required: ['query'],
  },
  async execute({ query, limit = 8 }: Args, { api, signal }) {
    const { results } = await api.search(query, { signal })
    return results.slice(0, limit).map(({ path, title, snippet }) => ({ path, title, snippet }))
  },
  describe: ({ query }, result) => `Searched “${query}”${result ? ` — ${result.length} page${result.length === 1 ? '' : 's'}` : ''}`,
})
