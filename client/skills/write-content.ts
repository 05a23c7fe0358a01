// The write skill's content steps: the post streams into its draft page, which is saved as it grows,
// then the finished draft is saved (asking the author if they edited it meanwhile).
import { SkillError, errorCode } from '../api/errors'
import { checkArticle, cleanPageText, describeProblem, type StructureProblem } from '../runtime/model-output'
import type { ModelRequest, SkillContext } from '../runtime/types'
import { composeFrontMatter, stripFrontMatter, today } from './markdown'
import { enforceSkeleton, withTitle } from './post-skeleton'
import { SYSTEM_PROMPT, system, user } from './prompts'
import { sanitizeMarkdown } from './sanitize-markdown'
import { requireModel } from './stream-reply'

const DRAFT_SAVE_INTERVAL_MS = 1000

export interface Outline {
  title: string
  outline: string
}

export interface Draft {
  path: string
}

export interface Content {
  /** The model's text as it streamed; pages get it sanitized. */
  body: string
}

export interface SavedDraft {
  /** The author edited the draft meanwhile and kept their version: the task ends there. */
  authorKept: boolean
}

export function topicOf(context: SkillContext): string {
  return context.inputs.params.topic ?? context.inputs.text
}

export function lengthHint(context: SkillContext): string {
  const { wordCount, length, style } = context.inputs.params
  const size = wordCount ? `about ${wordCount} words` : length === 'short' ? 'about 400 words' : length === 'long' ? 'about 1500 words' : 'about 800 words'
  return style ? `${size}, in a ${style} style` : size
}

/** The model's text as page Markdown: no front matter of its own, nothing that could run. */
export function pageBody(body: string): string {
  return sanitizeMarkdown(stripFrontMatter(cleanPageText(body))).markdown
}

/**
 * The post's body in its skeleton: the outline's title as its H1 and, once the text is finished, the
 * outline's sections as headings where the model left them out. Sanitized after shaping, because the
 * outline's headings are the model's text too.
 */
export function shapedBody(context: SkillContext, body: string, finished: boolean): string {
  const { title, outline } = context.output<Outline>('outline')
  return postBody(body, outline, title, finished)
}

/** `shapedBody` from its parts. */
export function postBody(body: string, outline: string, title: string, finished: boolean): string {
  const text = stripFrontMatter(cleanPageText(body))
  return sanitizeMarkdown(finished ? enforceSkeleton(text, outline, title) : withTitle(text, title)).markdown
}

function draftPage(context: SkillContext, body: string, finished = false): string {
  const { title } = context.output<Outline>('outline')
  return `${composeFrontMatter({ title, date: today(), draft: true })}\n${shapedBody(context, body, finished)}\n`
}

const WRITE_INSTRUCTION = (context: SkillContext, title: string) =>
  `Write the full post in Markdown, ${lengthHint(context)}. Start with "# ${title}". Follow the outline. Use fenced code blocks where code helps.`

const FIRMER_INSTRUCTION = (problem: StructureProblem) =>
  `Your last answer was ${describeProblem(problem)}. Write the complete post now: full paragraphs of prose under every "## " section heading of the outline. ` +
  'Answer with the post itself only: no outline, no notes, no questions, no text before or after it.'

/**
 * Streams the post into the draft page, saving about once a second; an edit by the author stops the
 * live saves. The final save is a step of its own, so a resume after the stream ended never pays for the text again.
 * An answer that is not a post (empty, the outline, the prompt back) is asked for once more, firmly, then failed honestly.
 */
export async function writeContent(context: SkillContext): Promise<Content> {
  const { title, outline } = context.output<Outline>('outline')
  const instruction = WRITE_INSTRUCTION(context, title)
  const resumed = context.resumedText
  const continuation = resumed ? `\n\nYou already wrote the beginning below. Continue exactly where it stops; do not repeat it.\n\n${resumed}` : ''
  const prompt = `${SYSTEM_PROMPT}\n${instruction}\nOutline:\n${outline}`
  let body = await streamDraft(context, [system(instruction), user(`Outline:\n${outline}${continuation}`)], resumed)
  const problem = checkArticle(cleanPageText(body), outline, prompt)
  // A real post that only skipped the outline's headings is kept as it is; anything that is not a post is asked for again.
  if (problem && problem !== 'no-headings') {
    context.progress(`The model answered with ${describeProblem(problem)}; asking once more…`)
    body = await streamDraft(context, [system(`${instruction}\n\n${FIRMER_INSTRUCTION(problem)}`), user(`Outline:\n${outline}`)], '')
    const second = checkArticle(cleanPageText(body), outline, prompt)
    if (second && second !== 'no-headings') await failDraft(context, second)
  }
  return { body: body.trim() }
}

/** Puts the draft page back to an honest placeholder and ends the task with a failure card. */
async function failDraft(context: SkillContext, problem: StructureProblem): Promise<never> {
  const { title } = context.output<Outline>('outline')
  const { path } = context.output<Draft>('draft')
  const reason = `The model answered twice with ${describeProblem(problem)}, so no post was written.`
  const note = `${composeFrontMatter({ title, date: today(), draft: true })}\n# ${title}\n\n_${reason}_\n`
  try {
    await context.writePage(path, note, context.expectedHash(path))
  } catch (error) {
    // The author is editing the draft: their text stays; the card still says what happened.
    if (errorCode(error) !== 'ERR_STALE') throw error
  }
  throw new SkillError('ERR_MODEL_OUTPUT', `${reason} \`${path}\` stays a draft. Try again, or pick a larger model (small local models often ignore the outline).`)
}

/** One streamed answer saved into the draft page as it grows. */
async function streamDraft(context: SkillContext, messages: ModelRequest['messages'], resumed: string): Promise<string> {
  const model = requireModel(context)
  const { path } = context.output<Draft>('draft')
  // The hash this task last wrote (also across a resume), never whatever is on disk now.
  let hash = context.expectedHash(path)
  let stale = false
  let lastSave = Date.now()
  let saving: Promise<void> = Promise.resolve()
  const save = (body: string) => {
    // Chained on a settled promise: one failed save must not skip the later ones.
    saving = saving.catch(() => undefined).then(async () => {
      if (stale || context.signal.aborted) return
      try {
        hash = await context.writePage(path, draftPage(context, body), hash)
      } catch (error) {
        if (errorCode(error) !== 'ERR_STALE') throw error
        // The author is editing the draft: stop saving over it; the next step asks them what to keep.
        stale = true
        return
      }
      // Renewing the lock keeps other tasks off the draft as it grows; never after a stop released it.
      if (!context.signal.aborted) await context.api.lock(path, context.taskId, { signal: context.signal })
    })
    return saving
  }
  let body = resumed
  try {
    const text = await model.complete({ messages, temperature: 0.7 }, {
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
    // The port's whole text has reasoning removed even where the stream could not tell (a lone </think>).
    body = resumed + text
  } finally {
    // A save (and its lock renewal) still under way ends before the step does, and before the runtime releases the locks.
    await saving.catch(() => undefined)
  }
  return body
}

/** Saves the finished draft with the hash this task last wrote: an edit the author made meanwhile is theirs to keep or replace. */
export async function saveDraft(context: SkillContext): Promise<SavedDraft> {
  const { path } = context.output<Draft>('draft')
  const { body } = context.output<Content>('content')
  const page = draftPage(context, body, true)
  const result = await context.pages.writeChecked({
    path,
    content: page,
    hash: context.expectedHash(path),
    conflict: `You changed \`${path}\` while I was drafting it. Re-apply replaces your version with my full draft; Drop keeps your version and ends the task.`,
    reapply: () => page,
  })
  if (result.outcome === 'dropped') {
    context.say(`Kept your version of \`${path}\`; I stopped there.`)
    return { authorKept: true }
  }
  return { authorKept: false }
}
