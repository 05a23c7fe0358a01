import { defineSkill } from '../runtime/define-skill'
import { parseEditCommand } from '../runtime/intent-commands'
import { editRule } from '../runtime/intent-patterns'
import type { Skill, SkillContext } from '../runtime/types'
import { locateSelection, type LocateOptions } from './locate'
import { pageTitles } from './source-map/page-titles'
import { system, user } from './prompts'
import { SkillError } from '../api/errors'
import { neutralizedNotice, sanitizeMarkdown, type Neutralized } from './sanitize-markdown'
import { requireModel } from './stream-reply'

interface Target {
  path: string
  hash: string
  /** The whole page as read: the save applies the edit to exactly this version (the one `hash` names). */
  source: string
  start: number
  end: number
}

interface Rewrite {
  replacement: string
  /** What the model's text had that was made inert. */
  neutralized: Neutralized[]
}

interface Review {
  accepted: boolean
  replacement: string
}

function targetPath(context: SkillContext): string {
  const path = context.inputs.params.path ?? context.inputs.currentFile
  if (!path) throw new SkillError('ERR_NO_PAGE', 'Open the page you want to edit, select the text, then ask again.')
  return path
}

function locate(source: string, selection: string, path: string, targets: LocateOptions): { start: number; end: number } {
  const found = locateSelection(source, selection, targets)
  if ('problem' in found) {
    throw new SkillError(
      found.problem === 'ambiguous' ? 'ERR_SELECTION_AMBIGUOUS' : 'ERR_SELECTION_NOT_FOUND',
      found.problem === 'ambiguous'
        ? `The selected text appears more than once in ${path}. Select a longer, unique passage and ask again.`
        : `I could not find the selected text in ${path}. Select text from the page's own content (not the sidebar or a generated part) and ask again.`,
    )
  }
  return found
}

/** edit: locate the selection in the source → rewrite it → a diff awaiting approval → save with the hash read at the start. */
export const editSkill = defineSkill({
  name: 'edit',
  intents: ['edit_content'],
  needsModel: true,
  params: ['path', 'instruction'],
  commands: [
    { name: 'edit', argument: 'instruction', description: 'Rewrite the text you selected on the page', help: '**/edit** an instruction — rewrite the text you selected on the page', order: 20, parse: parseEditCommand },
  ],
  patterns: { rules: [editRule], order: 60 },
  title: (inputs) => `Edit: ${inputs.params.instruction ?? inputs.text}`,
  steps: [
    {
      id: 'locate',
      title: 'Finding the selection in the page',
      async run(context): Promise<Target> {
        const selection = context.inputs.selectedText
        if (!selection?.trim()) throw new SkillError('ERR_NO_SELECTION', 'Select the text you want to change on the page, then ask again.')
        const path = targetPath(context)
        const { content, hash } = await context.api.readFile(path, { signal: context.signal })
        context.expectHash(path, hash)
        // `![[page]]` shows the page's title; only then is the page list worth asking for.
        const targets = content.includes('![[') ? pageTitles((await context.api.listPages({ signal: context.signal }).catch(() => ({ pages: [] }))).pages) : {}
        return { path, hash, source: content, ...locate(content, selection, path, targets) }
      },
    },
    {
      id: 'rewrite',
      title: 'Rewriting the selection',
      async run(context): Promise<Rewrite> {
        const { source, start, end } = context.output<Target>('locate')
        const original = source.slice(start, end)
        const surroundings = source.slice(Math.max(0, start - 600), Math.min(source.length, end + 600))
        const answer = await requireModel(context).complete({
          messages: [
            system('Rewrite the given Markdown passage as instructed. Keep its Markdown formatting, links and meaning. Reply with the new passage only, no quotes, no commentary.'),
            user(`Instruction: ${context.inputs.params.instruction ?? context.inputs.text}\n\nSurrounding text, for context only:\n${surroundings}\n\nPassage to rewrite:\n${original}`),
          ],
          temperature: 0.3,
        }, { onText: (_delta, text) => context.progress(`Rewriting… ${text.length} characters`) })
        // At the very start of a page, a `---` block from the model would become its front matter.
        const replacement = start === 0 ? answer.trim().replace(/^---/, '\\---') : answer.trim()
        // Sanitized in its place in the page, so that code around it stays code.
        const { markdown, neutralized } = sanitizeMarkdown(replacement, { before: source.slice(0, start), original, after: source.slice(end) })
        return { replacement: markdown, neutralized }
      },
    },
    {
      id: 'review',
      title: 'Waiting for your approval',
      async run(context): Promise<Review> {
        const target = context.output<Target>('locate')
        const { replacement, neutralized } = context.output<Rewrite>('rewrite')
        const decision = await context.approve({
          kind: 'edit',
          path: target.path,
          summary: context.inputs.params.instruction ?? context.inputs.text,
          before: target.source.slice(target.start, target.end),
          after: replacement,
          ...(neutralized.length ? { warning: neutralizedNotice(neutralized) } : {}),
        })
        if (decision.action === 'reject') {
          context.say('Left the page unchanged.')
          return { accepted: false, replacement }
        }
        return { accepted: true, replacement: decision.after ?? replacement }
      },
    },
    {
      id: 'save',
      title: 'Saving the change',
      writesExistingPage: true,
      async run(context): Promise<{ hash: string } | null> {
        const target = context.output<Target>('locate')
        const review = context.output<Review>('review')
        if (!review.accepted) return null
        const original = target.source.slice(target.start, target.end)
        const result = await context.pages.writeChecked({
          path: target.path,
          content: target.source.slice(0, target.start) + review.replacement + target.source.slice(target.end),
          hash: target.hash,
          conflict: `${target.path} changed while this edit waited. Re-apply the edit to the current text, or drop it?`,
          reapply(current) {
            const span = locateSelection(current, original)
            return 'problem' in span ? null : current.slice(0, span.start) + review.replacement + current.slice(span.end)
          },
        })
        const said = {
          written: `Updated \`${target.path}\`.`,
          reapplied: `Re-applied the edit to the current text of \`${target.path}\`.`,
          dropped: 'Dropped the edit; your newer text is untouched.',
          'no-longer-fits': 'The selected text is no longer in the page, so the edit was dropped; your text is untouched.',
        }[result.outcome]
        context.say(said)
        return 'hash' in result ? { hash: result.hash } : null
      },
    },
  ],
})
