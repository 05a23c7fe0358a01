import { neutralizedNotice, sanitizeMarkdown } from '../skills/sanitize-markdown'
import { ClientError } from '../api/errors'
import { pagePath } from '../runtime/page-path'
import { defineTool } from '../runtime/define-tool'

interface Args {
  path: string
  title: string
  content: string
}

export const createPage = defineTool({
  name: 'create_page',
  description: 'Creates a new page (never overwrites one). `content` is the Markdown body; the title goes into its front matter.',
  category: 'write',
  parameters: {
    type: 'object',
    properties: {
      path: { type: 'string', minLength: 4, maxLength: 300, description: 'A new path ending in .md, e.g. "posts/fsync-explained.md".' },
      title: { type: 'string', minLength: 1, maxLength: 200 },
      content: { type: 'string', maxLength: 200_000 },
    },
    required: ['path', 'title', 'content'],
  },
  async execute({ path: asked, title, content }: Args, context) {
    const path = pagePath(asked)
    // Before the card: the author is not asked to approve a page that cannot be created.
    if ((await context.api.readHash(path, { signal: context.signal })) !== null) {
      throw new ClientError('ERR_EXISTS', `${path} already exists. Pick another path, or read it and edit it instead.`)
    }
    const body = sanitizeMarkdown(content.replace(/^---/, '\\---'))
    // A JSON string is a valid YAML double-quoted scalar: nothing in the title can escape it.
    const page = `---\ntitle: ${JSON.stringify(title.replace(/\s+/g, ' ').trim())}\n---\n\n${body.markdown.trim()}\n`
    const decision = await context.approve({
      kind: 'create',
      askReason: true,
      path,
      summary: `New page ${path}`,
      before: '',
      after: page,
      ...(body.neutralized.length ? { warning: neutralizedNotice(body.neutralized) } : {}),
    })
    if (decision.action === 'reject') return { status: 'rejected', reason: `rejected by the author (${decision.reason ?? 'no reason given'}); nothing was created` }
    await context.pages.createPage(path, decision.after ?? page)
    return { status: 'created', path }
  },
  describe: ({ path }, result) => `Created ${path}${result && result.status === 'rejected' ? ' — rejected' : ''}`,
})
