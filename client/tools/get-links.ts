import { pagePath } from '../runtime/page-path'
import { defineTool } from '../runtime/define-tool'

interface Args {
  path: string
}

const unique = (values: string[]) => [...new Set(values)].sort()

export const getLinks = defineTool({
  name: 'get_links',
  description: 'The wiki-links of a page: pages it links to (outgoing), pages linking to it (backlinks), and its links to pages that do not exist (unresolved).',
  category: 'read',
  parameters: {
    type: 'object',
    properties: { path: { type: 'string', minLength: 4, maxLength: 300 } },
    required: ['path'],
  },
  async execute({ path: asked }: Args, { api, signal }) {
    const path = pagePath(asked)
    const graph = await api.graph({ signal })
    return {
      outgoing: unique(graph.edges.filter((edge) => edge.source === path).map((edge) => edge.target)),
      backlinks: unique(graph.edges.filter((edge) => edge.target === path).map((edge) => edge.source)),
      unresolved: unique(graph.unresolved.filter((link) => link.source === path).map((link) => link.target)),
    }
  },
  describe: ({ path }, result) => `Links of ${path}${result ? ` — ${result.outgoing.length} out, ${result.backlinks.length} in` : ''}`,
})
