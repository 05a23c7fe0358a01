import { defineSkill } from '../runtime/define-skill'
import { askJson, cleanPageText, titleOf } from '../runtime/model-output'
import { parseWriteCommand } from '../runtime/intent-commands'
import { writeRule } from '../runtime/intent-patterns'
import { pageNavigator } from '../runtime/page-navigation'
import type { Skill, SkillContext } from '../runtime/types'
import { routeOf } from '../../server/knowledge/routes'
import { composeFrontMatter, stripFrontMatter, today } from './markdown'
import { outlineSections } from './post-skeleton'
import { chooseFolder, requestLanguage, slugForTitle } from './post-place'
import { system, user } from './prompts'
import { RELATED_HEADING, findRelated, relatedSection, type Related } from './related-posts'
import { requireModel } from './stream-reply'
import { titleCase } from './title-case'
import { lengthHint, saveDraft, shapedBody, topicOf, writeContent, type Content, type Draft, type Outline, type SavedDraft } from './write-content'

interface Details {
  tags: string[]
  description: string
}

/** A one-line title that is safe as front matter, as a heading and in the sidebar. */
function plainTitle(text: string): string {
  return text.replace(/[<>{}\r\n]/g, '').trim()
}

/** The new post's path: the one asked for, else a readable name in the folder the request's words or language choose. */
async function freePath(context: SkillContext, title: string): Promise<string> {
  const { path, folder } = context.inputs.params
  let wanted = path
  if (wanted === undefined) {
    const { pages } = await context.api.listPages({ signal: context.signal })
    // The request's language, not the topic's: "写一篇关于 React hooks 的文章" is a Chinese post.
    wanted = `${chooseFolder(pages, requestLanguage(context.inputs.text), folder)}/${await slugForTitle(title)}.md`
  }
  for (let attempt = 1; ; attempt++) {
    const candidate = attempt === 1 ? wanted : wanted.replace(/\.md$/, `-${attempt}.md`)
    if ((await context.api.readHash(candidate, { signal: context.signal })) === null) return candidate
  }
}

/** Opens the finished post where the author is, unless they are already on it. */
async function openPost(path: string): Promise<void> {
  const navigator = pageNavigator()
  if (navigator && navigator.currentFile() !== path) await navigator.go(routeOf(path))
}

/**
 * write: related posts → outline → posts to link, found from the outline → a draft page that grows as
 * it streams → the finished draft in the outline's skeleton → front matter → final save → graph, and the post opens.
 */
export const writeSkill = defineSkill({
  name: 'write',
  intents: ['write_article'],
  needsModel: true,
  params: ['topic', 'style', 'length'],
  commands: [
    { name: 'write', argument: 'topic', description: 'Draft a new post into a Markdown file', help: '**/write** a topic — draft a new post (or "write a post about …", "写一篇关于…的文章")', order: 10, parse: parseWriteCommand },
    { name: 'draft', description: 'Draft a new post', hidden: true, order: 11, parse: parseWriteCommand },
  ],
  patterns: { rules: [writeRule], order: 40 },
  // 2: the skeleton, the folder and slug, and the related links found from the outline (a step of their own).
  version: 2,
  title: (inputs) => `Write a post about ${inputs.params.topic ?? inputs.text}`,
  steps: [
    {
      id: 'related',
      title: 'Finding related posts',
      async run(context): Promise<Related> {
        return findRelated(context, [topicOf(context)], topicOf(context))
      },
    },
    {
      id: 'outline',
      title: 'Planning the outline',
      async run(context): Promise<Outline> {
        const related = context.output<Related>('related')
        const text = await requireModel(context).complete({
          messages: [
            system('Write an outline for a new blog post. Start with "# " and the title on the first line, then the section headings ("## …") with one line each on what they cover.'),
            user(`Topic: ${topicOf(context)}\nLength: ${lengthHint(context)}\nRelated posts on the blog: ${related.map((page) => page.title).join('; ') || 'none'}`),
          ],
          temperature: 0.4,
        }, { onText: () => context.progress('Planning the outline…') })
        const outline = cleanPageText(text)
        // The author's words are a topic, not a title: cased as their language writes titles (CJK as typed).
        const title = titleCase(plainTitle(titleOf(outline)) || plainTitle(topicOf(context)))
        return { title, outline }
      },
    },
    {
      id: 'links',
      title: 'Finding posts to link',
      async run(context): Promise<Related> {
        const { title, outline } = context.output<Outline>('outline')
        // The outline's words find what the topic alone cannot ("缓存" has no page, "流式输出中的缓存" does);
        // searched before the draft exists, which would match every one of its own headings.
        const headings = outlineSections(outline).map((section) => section.heading)
        const found = await findRelated(context, [title, ...headings], `${title} ${topicOf(context)}`)
        const first = context.output<Related>('related')
        return [...first, ...found.filter((page) => !first.some((seen) => seen.path === page.path))].slice(0, 5)
      },
    },
    {
      id: 'draft',
      title: 'Creating the draft page',
      async run(context): Promise<Draft> {
        const { title } = context.output<Outline>('outline')
        // Resumed after the create landed: the page is this task's own, not a name taken by another post.
        const own = context.createdPaths.find((path) => context.expectedHash(path) !== null)
        const path = own ?? (await freePath(context, title))
        await context.api.lock(path, context.taskId, { signal: context.signal })
        if (!own) {
          context.markCreated(path)
          await context.writePage(path, `${composeFrontMatter({ title, date: today(), draft: true })}\n# ${title}\n\n_Drafting…_\n`, null)
        }
        context.say(`Drafting [${title}](${routeOf(path)}) in \`${path}\`…`)
        return { path }
      },
    },
    {
      id: 'content',
      title: 'Writing the content',
      run: writeContent,
    },
    {
      id: 'save-draft',
      title: 'Saving the draft',
      run: saveDraft,
    },
    {
      id: 'details',
      title: 'Adding front matter and links',
      async run(context): Promise<Details | null> {
        const { title } = context.output<Outline>('outline')
        if (context.output<SavedDraft>('save-draft').authorKept) return null
        const { body } = context.output<Content>('content')
        const { value } = await askJson(requireModel(context), {
          messages: [
            system(`Give front matter for this post as JSON only: ${DETAILS_SHAPE}.`),
            user(`# ${title}\n\n${body.slice(0, 6000)}`),
          ],
          temperature: 0,
        }, { check: (parsed) => checkDetails(parsed, title), shape: DETAILS_SHAPE, fallback: { tags: [], description: title } })
        return value
      },
    },
    {
      id: 'save',
      title: 'Saving the post',
      async run(context): Promise<{ path: string; hash: string } | null> {
        const details = context.output<Details | null>('details')
        if (!details) return null
        const { title } = context.output<Outline>('outline')
        const { path } = context.output<Draft>('draft')
        const { body } = context.output<Content>('content')
        const related = context.output<Related>('links').filter((page) => page.path !== path)
        const frontMatter = composeFrontMatter({ title, date: today(), tags: details.tags, description: details.description })
        const finish = (text: string) => `${frontMatter}\n${text}${text.includes(RELATED_HEADING) ? '' : relatedSection(related)}\n`
        const result = await context.pages.writeChecked({
          path,
          content: finish(shapedBody(context, body, true)),
          // The hash the task last wrote: an edit the author made since is theirs to keep.
          hash: context.expectedHash(path),
          conflict: `You changed \`${path}\` while I was finishing the post. Re-apply adds the front matter and related links to your current text; Drop keeps your version as it is.`,
          reapply: (current) => finish(stripFrontMatter(current).trim()),
        })
        if (!('hash' in result)) {
          context.say(`Kept your version of \`${path}\` as it is.`)
          return null
        }
        return { path, hash: result.hash }
      },
    },
    {
      id: 'graph',
      title: 'Updating the knowledge graph',
      async run(context): Promise<{ links: number } | null> {
        const saved = context.output<{ path: string } | null>('save')
        if (!saved) return null
        const { title } = context.output<Outline>('outline')
        const graph = await context.api.graph({ signal: context.signal })
        const links = graph.edges.filter((edge) => edge.source === saved.path).length
        context.say(`Saved **[${title}](${routeOf(saved.path)})** with ${links} link${links === 1 ? '' : 's'} to your other posts.`)
        await openPost(saved.path)
        return { links }
      },
    },
  ],
})

const DETAILS_SHAPE = '{"tags": [3 to 5 lowercase tags], "description": "one sentence"}'

/** Details that fit the shape asked for, or null: a description is required, tags may be few. */
function checkDetails(parsed: unknown, title: string): Details | null {
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return null
  const { tags, description } = parsed as Partial<Record<keyof Details, unknown>>
  if (typeof description !== 'string' || !plainTitle(description)) return null
  if (tags !== undefined && !Array.isArray(tags)) return null
  const names = (tags ?? []).filter((tag): tag is string => typeof tag === 'string').map(plainTitle).filter(Boolean).slice(0, 8)
  return { tags: names, description: plainTitle(description) || title }
}
