import type { SearchResult } from '../../plugin/protocol'
import type { Skill, SkillContext } from '../runtime/types'
import { composeFrontMatter, routeOf, slugForTitle, stripFrontMatter, today } from './markdown'
import { system, user } from './prompts'

const DRAFT_SAVE_INTERVAL_MS = 1000

interface Outline {
  title: string
  outline: string
}

interface Draft {
  path: string
}

interface Details {
  tags: string[]
  description: string
}

type Related = Pick<SearchResult, 'path' | 'title'>[]

function topicOf(context: SkillContext): string {
  return context.inputs.params.topic ?? context.inputs.text
}

function lengthHint(context: SkillContext): string {
  const { wordCount, length, style } = context.inputs.params
  const size = wordCount ? `about ${wordCount} words` : length === 'short' ? 'about 400 words' : length === 'long' ? 'about 1500 words' : 'about 800 words'
  return style ? `${size}, in a ${style} style` : size
}

/** Reads a page we wrote before (its current hash), or null if it is gone. */
async function hashOf(context: SkillContext, path: string): Promise<string | null> {
  try {
    return (await context.api.readFile(path, { signal: context.signal })).hash
  } catch (error) {
    if ((error as { code?: string }).code === 'ERR_NOT_FOUND') return null
    throw error
  }
}

async function freePath(context: SkillContext, title: string): Promise<string> {
  const wanted = context.inputs.params.path ?? `posts/${slugForTitle(title)}.md`
  for (let attempt = 1; ; attempt++) {
    const candidate = attempt === 1 ? wanted : wanted.replace(/\.md$/, `-${attempt}.md`)
    if ((await hashOf(context, candidate)) === null) return candidate
  }
}

function relatedSection(related: Related): string {
  if (related.length === 0) return ''
  const links = related.map((page) => `- [[${page.path.replace(/\.md$/, '')}|${page.title}]]`)
  return `\n\n## Related posts\n\n${links.join('\n')}\n`
}

/** write: related posts → outline → a draft page that grows as it streams → front matter → final save → graph. */
export const writeSkill: Skill = {
  name: 'write',
  intents: ['write_article'],
  needsModel: true,
  title: (inputs) => `Write a post about ${inputs.params.topic ?? inputs.text}`,
  steps: [
    {
      id: 'related',
      title: 'Finding related posts',
      async run(context): Promise<Related> {
        const { results } = await context.api.search(topicOf(context), { signal: context.signal })
        return results.slice(0, 5).map(({ path, title }) => ({ path, title }))
      },
    },
    {
      id: 'outline',
      title: 'Planning the outline',
      async run(context): Promise<Outline> {
        const related = context.output<Related>('related')
        const text = await context.model!.complete({
          messages: [
            system('Write an outline for a new blog post. Start with "# " and the title on the first line, then the section headings ("## …") with one line each on what they cover.'),
            user(`Topic: ${topicOf(context)}\nLength: ${lengthHint(context)}\nRelated posts on the blog: ${related.map((page) => page.title).join('; ') || 'none'}`),
          ],
          temperature: 0.4,
        }, { onText: () => context.progress('Planning the outline…') })
        const title = /^#\s+(.+)$/m.exec(text)?.[1]?.trim() || topicOf(context)
        return { title, outline: text.trim() }
      },
    },
    {
      id: 'draft',
      title: 'Creating the draft page',
      async run(context): Promise<Draft> {
        const { title } = context.output<Outline>('outline')
        const path = await freePath(context, title)
        const content = `${composeFrontMatter({ title, date: today(), draft: true })}\n# ${title}\n\n_Drafting…_\n`
        await context.api.lock(path, context.taskId, { signal: context.signal })
        context.markCreated(path)
        await context.writePage(path, content, null)
        context.say(`Drafting [${title}](${routeOf(path)}) in \`${path}\`…`)
        return { path }
      },
    },
    {
      id: 'content',
      title: 'Writing the content',
      async run(context): Promise<{ body: string }> {
        const { title, outline } = context.output<Outline>('outline')
        const { path } = context.output<Draft>('draft')
        let hash = await hashOf(context, path)
        let lastSave = Date.now()
        let saving: Promise<void> = Promise.resolve()
        const header = composeFrontMatter({ title, date: today(), draft: true })
        const save = (body: string) => {
          saving = saving.then(async () => {
            hash = await context.writePage(path, `${header}\n${body}\n`, hash)
            // Renewing the lock keeps other tasks off the draft for as long as it grows.
            await context.api.lock(path, context.taskId, { signal: context.signal })
          })
          return saving
        }
        const resumed = context.resumedText
        const continuation = resumed
          ? `\n\nYou already wrote the beginning below. Continue exactly where it stops; do not repeat it.\n\n${resumed}`
          : ''
        let body = resumed
        await context.model!.complete({
          messages: [
            system(`Write the full post in Markdown, ${lengthHint(context)}. Start with "# ${title}". Follow the outline. Use fenced code blocks where code helps.`),
            user(`Outline:\n${outline}${continuation}`),
          ],
          temperature: 0.7,
        }, {
          onText: (delta) => {
            body += delta
            context.streamed(body)
            context.progress(`Writing the content… ${body.length.toLocaleString('en')} characters`)
            if (Date.now() - lastSave >= DRAFT_SAVE_INTERVAL_MS) {
              lastSave = Date.now()
              void save(body).catch(() => undefined)
            }
          },
        })
        await saving.catch(() => undefined)
        await save(body)
        return { body: body.trim() }
      },
    },
    {
      id: 'details',
      title: 'Adding front matter and links',
      async run(context): Promise<Details> {
        const { title } = context.output<Outline>('outline')
        const { body } = context.output<{ body: string }>('content')
        const answer = await context.model!.complete({
          messages: [
            system('Give front matter for this post as JSON only: {"tags": [3 to 5 lowercase tags], "description": "one sentence"}.'),
            user(`# ${title}\n\n${body.slice(0, 6000)}`),
          ],
          temperature: 0,
        })
        return parseDetails(answer, title)
      },
    },
    {
      id: 'save',
      title: 'Saving the post',
      async run(context): Promise<{ path: string; hash: string }> {
        const { title } = context.output<Outline>('outline')
        const { path } = context.output<Draft>('draft')
        const { body } = context.output<{ body: string }>('content')
        const { tags, description } = context.output<Details>('details')
        const related = context.output<Related>('related').filter((page) => page.path !== path)
        const page = `${composeFrontMatter({ title, date: today(), tags, description })}\n${stripFrontMatter(body)}${relatedSection(related)}`
        const hash = await context.writePage(path, page, await hashOf(context, path))
        return { path, hash }
      },
    },
    {
      id: 'graph',
      title: 'Updating the knowledge graph',
      async run(context): Promise<{ links: number }> {
        const { title } = context.output<Outline>('outline')
        const { path } = context.output<{ path: string }>('save')
        const graph = await context.api.graph({ signal: context.signal })
        const links = graph.edges.filter((edge) => edge.source === path).length
        context.say(`Saved **[${title}](${routeOf(path)})** with ${links} link${links === 1 ? '' : 's'} to your other posts.`)
        return { links }
      },
    },
  ],
}

function parseDetails(answer: string, title: string): Details {
  try {
    const parsed = JSON.parse(/\{[\s\S]*\}/.exec(answer)?.[0] ?? '') as Partial<Details>
    const tags = Array.isArray(parsed.tags) ? parsed.tags.filter((tag): tag is string => typeof tag === 'string').slice(0, 8) : []
    const description = typeof parsed.description === 'string' ? parsed.description.trim() : ''
    return { tags, description: description || title }
  } catch {
    return { tags: [], description: title }
  }
}
