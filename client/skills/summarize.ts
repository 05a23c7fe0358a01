import { defineSkill } from '../runtime/define-skill'
import { parseTargetCommand } from '../runtime/intent-commands'
import { summarizeRule } from '../runtime/intent-patterns'
import type { Skill, SkillContext, TaskInputs } from '../runtime/types'
import { resolveTarget } from '../runtime/intent-params'
import { chunkText } from './chunk-text'
import { extractiveSummary, firstSentence } from './extractive-summary'
import { setFrontMatterField, stripFrontMatter } from './markdown'
import { pageLink } from './page-link'
import { readTargetPage, type PageRequest, type TargetPage } from './page-target'
import { system, user } from './prompts'
import { wantsSavedDescription, withoutSaveClause } from './save-request'
import { SkillError } from '../api/errors'
import { requireModel, streamReply } from './stream-reply'

/** Pages with a longer body are summarized part by part, then the parts combined. */
export const SUMMARY_BUDGET = 12_000

interface Summary {
  text: string
  /** One sentence for the page's description. */
  sentence: string
  method: 'model' | 'extractive'
}

/**
 * What the summarize step has done so far. It rides, as JSON, in the step's streamed text (the one
 * per-step slot a checkpoint has), so a resume keeps the finished parts and the combined text so far.
 */
interface SummaryProgress {
  parts: string[]
  text: string
}

const SHAPE =
  'Start with one sentence that sums up the whole post, on its own line. Then 3 to 6 bullet points with its key points. No heading, no preamble.'

function parseProgress(resumed: string): SummaryProgress {
  try {
    const parsed = JSON.parse(resumed) as SummaryProgress
    if (Array.isArray(parsed.parts) && typeof parsed.text === 'string') return parsed
  } catch {
    // Nothing usable was saved: start the step afresh.
  }
  return { parts: [], text: '' }
}

/** The page to summarize; a "save it as the description" clause is not part of its name. */
function pageRequest(context: SkillContext): PageRequest {
  const { path, pageHint } = context.inputs.params
  if (path || !pageHint) return { path }
  return resolveTarget(withoutSaveClause(pageHint), { currentFile: context.inputs.currentFile }).params
}

function wantsSave(inputs: TaskInputs): boolean {
  return wantsSavedDescription(inputs.text, inputs.params.pageHint, inputs.params.instruction)
}

function extractive(context: SkillContext, page: TargetPage, body: string): Summary {
  const sentences = extractiveSummary(body)
  const text = sentences.length ? sentences.map((sentence) => `- ${sentence}`).join('\n') : '_The page has no prose to pick sentences from._'
  const reply = context.replyStream()
  reply.append(`**Extractive summary (no model configured)** of ${pageLink(page.title, page.path)}\n\n${text}`)
  reply.done()
  return { text, sentence: sentences[0] ?? '', method: 'extractive' }
}

/** Summarizes each part of a long page, saving after each so a resume starts at the first unfinished one. */
async function summarizeParts(context: SkillContext, page: TargetPage, chunks: string[], saved: SummaryProgress): Promise<string[]> {
  const parts = saved.parts.slice(0, chunks.length)
  for (let index = parts.length; index < chunks.length; index++) {
    context.progress(`Summarizing part ${index + 1} of ${chunks.length}`)
    const text = await requireModel(context).complete({
      messages: [
        system('Summarize this part of a longer blog post in 3 to 6 bullet points. Keep names, numbers and conclusions.'),
        user(`Post: ${page.title}\nPart ${index + 1} of ${chunks.length}:\n\n${chunks[index]}`),
      ],
      temperature: 0.2,
    })
    parts.push(text.trim())
    context.streamed(JSON.stringify({ parts, text: '' } satisfies SummaryProgress))
    await context.saveCheckpoint()
  }
  return parts
}

/** summarize: read the page → a streamed summary (in parts for long pages; extractive without a model) → optionally save it as the description. */
export const summarizeSkill = defineSkill({
  name: 'summarize',
  intents: ['summarize'],
  needsModel: false,
  params: ['path', 'pageHint'],
  commands: [
    { name: 'summarize', description: 'Summarize this page (or a named one)', help: '**/summarize** — summarize this page (or a named one)', order: 30, parse: parseTargetCommand },
    { name: 'summarise', description: 'Summarize this page', hidden: true, order: 31, parse: parseTargetCommand },
  ],
  patterns: { rules: [summarizeRule], order: 30 },
  title: (inputs) => `Summarize ${inputs.params.path ?? inputs.params.pageHint ?? inputs.currentFile ?? 'a page'}`,
  steps: [
    {
      id: 'read',
      title: 'Reading the page',
      async run(context): Promise<TargetPage> {
        const page = await readTargetPage(context, pageRequest(context), 'summarize')
        if (!stripFrontMatter(page.content).trim()) throw new SkillError('ERR_EMPTY_PAGE', `${page.path} has no text to summarize yet. Write something first, then ask again.`)
        return page
      },
    },
    {
      id: 'summarize',
      title: 'Summarizing',
      async run(context): Promise<Summary> {
        const page = context.output<TargetPage>('read')
        const body = stripFrontMatter(page.content).trim()
        if (!context.model) return extractive(context, page, body)
        const saved = parseProgress(context.resumedText)
        const chunks = body.length > SUMMARY_BUDGET ? chunkText(body, SUMMARY_BUDGET) : []
        const parts = await summarizeParts(context, page, chunks, saved)
        if (parts.length) context.progress(`Combining ${parts.length} parts`)
        const source = parts.length
          ? `The post was long, so it was summarized in parts. Combine these part summaries into one summary of the whole post.\n\n${parts.map((part, index) => `Part ${index + 1}:\n${part}`).join('\n\n')}`
          : body
        const text = await streamReply(
          context,
          { messages: [system(`Summarize the blog post below for its author. ${SHAPE}`), user(`Post: ${page.title}\n\n${source}`)], temperature: 0.3 },
          {
            lead: `**Summary of ${pageLink(page.title, page.path)}**\n\n`,
            resumed: saved.text,
            save: (streamed) => context.streamed(JSON.stringify({ parts, text: streamed } satisfies SummaryProgress)),
          },
        )
        return { text, sentence: firstSentence(text), method: 'model' }
      },
    },
    {
      id: 'save-description',
      title: 'Saving the description',
      writesExistingPage: wantsSave,
      async run(context): Promise<{ description: string; hash: string } | null> {
        if (!wantsSave(context.inputs)) return null
        const page = context.output<TargetPage>('read')
        const { sentence } = context.output<Summary>('summarize')
        if (!sentence) {
          context.say('The summary has no sentence to use as a description, so I left the page unchanged.')
          return null
        }
        const decision = await context.approve({ kind: 'description', path: page.path, summary: `Set the description of ${page.path}`, before: page.description, after: sentence })
        if (decision.action === 'reject') {
          context.say('Kept the old description.')
          return null
        }
        // Front matter is one line per field here: fold an edited description onto one line.
        const description = (decision.after ?? sentence).replace(/\s+/g, ' ').trim()
        const result = await context.pages.writeChecked({
          path: page.path,
          content: setFrontMatterField(page.content, 'description', description),
          hash: page.hash,
          conflict: `${page.path} changed while the description waited. Set it on the current text, or drop it?`,
          reapply: (current) => setFrontMatterField(current, 'description', description),
        })
        if (!('hash' in result)) {
          context.say('Dropped the description; your newer text is untouched.')
          return null
        }
        context.say(`Saved the description of ${pageLink(page.title, page.path)}.`)
        return { description, hash: result.hash }
      },
    },
  ],
})
