import { defineSkill } from '../runtime/define-skill'
import { graphRule } from '../runtime/intent-patterns'
import type { Skill, SkillContext } from '../runtime/types'
import { describePageLinks, describeSite, pageLinks } from './graph-report'
import { pageLink } from './page-link'
import { findUnlinkedMentions, linkMentions, wikiLinkFor, type LinkCandidate, type Mention } from './unlinked-mentions'

interface Inspection {
  /** The page looked at; null when none is open and the report covered the whole blog. */
  path: string | null
  title: string
  /** Pages it already links to: no need to suggest them again. */
  outgoing: string[]
}

interface Suggestions {
  path: string
  title: string
  hash: string
  /** The page as read: the approval shows it and the links are applied to exactly this version. */
  content: string
  mentions: Mention[]
}

function pageOf(context: SkillContext): string | null {
  return context.inputs.params.path ?? context.inputs.currentFile ?? null
}

function listMentions(mentions: readonly Mention[]): string {
  return mentions.map((mention) => `- “${mention.text}” → \`${wikiLinkFor(mention)}\``).join('\n')
}

/** graph: the page's backlinks and dead links → unlinked mentions of other posts → link them, with approval. */
export const graphSkill = defineSkill({
  name: 'graph',
  intents: ['update_graph'],
  needsModel: false,
  params: ['path'],
  commands: [
    { name: 'graph', description: 'Backlinks, unresolved links and link ideas for this page', help: '**/graph** — backlinks, unresolved links and link suggestions for this page', order: 50 },
  ],
  patterns: { rules: [graphRule], order: 70 },
  title: (inputs) => `Links of ${inputs.params.path ?? inputs.currentFile ?? 'the blog'}`,
  steps: [
    {
      id: 'inspect',
      title: 'Reading the knowledge graph',
      async run(context): Promise<Inspection> {
        const graph = await context.api.graph({ signal: context.signal })
        const path = pageOf(context)
        if (!path) {
          context.say(describeSite(graph))
          return { path: null, title: '', outgoing: [] }
        }
        context.say(describePageLinks(graph, path))
        const title = graph.nodes.find((node) => node.path === path)?.title ?? path
        return { path, title, outgoing: pageLinks(graph, path).outgoing }
      },
    },
    {
      id: 'suggest',
      title: 'Looking for unlinked mentions',
      async run(context): Promise<Suggestions | null> {
        const { path, title, outgoing } = context.output<Inspection>('inspect')
        if (!path) return null
        const { content, hash } = await context.api.readFile(path, { signal: context.signal })
        context.expectHash(path, hash)
        const { pages } = await context.api.listPages({ signal: context.signal })
        const linked = new Set(outgoing)
        const candidates: LinkCandidate[] = pages
          .filter((page) => page.path !== path && !linked.has(page.path))
          .map((page) => ({ path: page.path, title: page.title }))
        return { path, title, hash, content, mentions: findUnlinkedMentions(content, candidates) }
      },
    },
    {
      id: 'apply',
      title: 'Linking the mentions',
      writesExistingPage: true,
      async run(context): Promise<{ hash: string; linked: number } | null> {
        const found = context.output<Suggestions | null>('suggest')
        if (!found) return null
        const { path, title, hash, content, mentions } = found
        if (mentions.length === 0) {
          context.say(`${pageLink(title, path)} mentions no other post by its title without linking it already.`)
          return null
        }
        context.say(`Suggested links:\n${listMentions(mentions)}`)
        const after = linkMentions(content, mentions)
        const plural = mentions.length === 1 ? '' : 's'
        const decision = await context.approve({ kind: 'links', path, summary: `Link ${mentions.length} mention${plural} of other posts`, before: content, after })
        if (decision.action === 'reject') {
          context.say('Left the page without the new links.')
          return null
        }
        const targets = mentions.map((mention) => ({ path: mention.path, title: mention.title }))
        const result = await context.pages.writeChecked({
          path,
          content: decision.after ?? after,
          hash,
          conflict: `${path} changed while the links waited. Link the mentions in the current text, or drop the links?`,
          // On the current text, the same titles are looked for again: their first unlinked mentions get the links.
          reapply: (current) => {
            const fresh = findUnlinkedMentions(current, targets)
            return fresh.length ? linkMentions(current, fresh) : null
          },
        })
        if (result.outcome === 'dropped') {
          context.say('Dropped the links; your newer text is untouched.')
          return null
        }
        if (result.outcome === 'no-longer-fits') {
          context.say(`The current text of \`${path}\` no longer has those mentions unlinked, so I changed nothing.`)
          return null
        }
        context.say(`Linked ${mentions.length} mention${plural} in ${pageLink(title, path)}.`)
        return { hash: result.hash, linked: mentions.length }
      },
    },
  ],
})
