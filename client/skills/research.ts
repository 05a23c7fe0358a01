import type { SearchResult } from '../../plugin/protocol'
import { defineSkill } from '../runtime/define-skill'
import { parseQueryCommand } from '../runtime/intent-commands'
import { questionOf, retrievalQuery } from '../runtime/intent-query'
import { researchRule } from '../runtime/intent-patterns'
import type { Skill, SkillContext } from '../runtime/types'
import { pageLink } from './page-link'
import { bestPassages } from './passages'
import { system, user } from './prompts'
import { errorCode } from '../api/errors'
import { streamReply } from './stream-reply'

const MAX_HITS = 6
const PASSAGES_PER_PAGE = 2

type Hit = Pick<SearchResult, 'path' | 'title' | 'snippet'>

interface Found {
  /** The words searched for: the question without its command and frame. */
  query: string
  /** The question as asked, for the model to answer. */
  question: string
  hits: Hit[]
}

interface Source {
  path: string
  title: string
  passages: string[]
}

// Whichever way the question came (slash, sentence, the model's parse), the same words are searched for.
function queryOf(context: SkillContext): string {
  return retrievalQuery(context.inputs.params.query ?? context.inputs.text)
}

/** The pages an answer drew on, as its own list of links: every answer ends with it. */
export function sourcesList(sources: readonly Pick<Source, 'path' | 'title'>[]): string {
  return `**Sources**\n\n${sources.map((source, index) => `${index + 1}. ${pageLink(source.title, source.path)}`).join('\n')}`
}

function quote(passage: string): string {
  return passage
    .split('\n')
    .map((line) => `> ${line}`)
    .join('\n')
}

/** research: search the blog → the best paragraphs of each hit → an answer that cites them (or the quotes, without a model). */
export const researchSkill = defineSkill({
  name: 'research',
  intents: ['research', 'answer_question'],
  needsModel: false,
  params: ['query'],
  commands: [
    { name: 'research', argument: 'question', description: 'Answer from your own posts, with links', help: '**/research** a question — answer from your own posts, with links', order: 40, parse: parseQueryCommand },
    { name: 'search', description: 'Search your posts', hidden: true, order: 41, parse: parseQueryCommand },
    {
      name: 'ask',
      argument: 'question',
      description: 'Ask anything about your blog',
      help: '**/ask** a question — answer it from your blog',
      order: 70,
      parse: (argument, context) => ({ intent: 'answer_question', ...parseQueryCommand(argument, context) }),
    },
  ],
  patterns: { rules: [researchRule], order: 20 },
  // 2: the search step keeps the question apart from the words searched for.
  version: 2,
  title: (inputs) => `Research: ${inputs.params.query ?? inputs.text}`,
  steps: [
    {
      id: 'search',
      title: 'Searching your posts',
      async run(context): Promise<Found> {
        const query = queryOf(context)
        const question = questionOf(context.inputs.text) || query
        const { results } = await context.api.search(query, { signal: context.signal })
        const hits = results.slice(0, MAX_HITS).map(({ path, title, snippet }) => ({ path, title, snippet }))
        if (hits.length === 0) {
          context.say(
            `I found nothing about "${query}" in your posts. Try fewer or other words (a name, a term you would have used in a post), or ask me to write a post about it: \`/write ${query}\`.`,
          )
        }
        return { query, question, hits }
      },
    },
    {
      id: 'passages',
      title: 'Reading the matching posts',
      async run(context): Promise<Source[]> {
        const { query, hits } = context.output<Found>('search')
        const sources: Source[] = []
        for (const [index, hit] of hits.entries()) {
          context.progress(`Reading ${index + 1} of ${hits.length}: ${hit.title}`)
          let content: string
          try {
            content = (await context.api.readFile(hit.path, { signal: context.signal })).content
          } catch (error) {
            // The index can lag a deletion by a moment; a page that is gone is simply not a source.
            if (errorCode(error) === 'ERR_NOT_FOUND') continue
            throw error
          }
          const passages = bestPassages(content, query, PASSAGES_PER_PAGE).map((passage) => passage.markdown)
          // A hit on the title or tags alone has no matching paragraph: the search snippet stands in.
          if (passages.length === 0 && hit.snippet.trim()) passages.push(hit.snippet.trim())
          if (passages.length) sources.push({ path: hit.path, title: hit.title, passages })
        }
        return sources
      },
    },
    {
      id: 'answer',
      title: 'Answering',
      async run(context): Promise<{ answer: string } | null> {
        const { query, question, hits } = context.output<Found>('search')
        if (hits.length === 0) return null
        const sources = context.output<Source[]>('passages')
        if (sources.length === 0) {
          context.say(`The pages that matched "${query}" are gone or have no text. Try other words.`)
          return null
        }
        if (!context.model) {
          const answer = sources.map((source) => `${pageLink(source.title, source.path)}\n\n${source.passages.map(quote).join('\n\n')}`).join('\n\n')
          const reply = context.replyStream()
          reply.append(`**Search results (no model configured)** for "${query}"\n\n${answer}\n\n${sourcesList(sources)}`)
          reply.done()
          return { answer }
        }
        const material = sources
          .map((source, index) => `[${index + 1}] ${pageLink(source.title, source.path)}\n${source.passages.join('\n\n')}`)
          .join('\n\n---\n\n')
        const answer = await streamReply(context, {
          messages: [
            system(
              'Answer the question using only the passages below, which come from the author\'s own blog. ' +
                'Cite each fact with the Markdown link of its source exactly as given, like [Title](/route). ' +
                'If the passages do not answer the question, say so plainly and say what they do cover; never invent facts or links.',
            ),
            user(`Question: ${question}\n\nPassages:\n\n${material}`),
          ],
          temperature: 0.2,
        }, { tail: `\n\n${sourcesList(sources)}` })
        return { answer }
      },
    },
  ],
})
