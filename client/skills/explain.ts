import { defineSkill } from '../runtime/define-skill'
import { explainRule } from '../runtime/intent-patterns'
import type { Skill, SkillContext } from '../runtime/types'
import { codeBlocks } from './markdown'
import { system, user } from './prompts'
import { SkillError, errorCode } from '../api/errors'
import { streamReply } from './stream-reply'

/** About as much code as one answer can explain well; later blocks are named but left out. */
const CODE_BUDGET = 12_000

interface Code {
  path: string | null
  blocks: { language: string; code: string }[]
  /** Blocks left out for length. */
  omitted: number
}

async function pageCode(context: SkillContext, path: string): Promise<Code> {
  let content: string
  try {
    content = (await context.api.readFile(path, { signal: context.signal })).content
  } catch (error) {
    if (errorCode(error) === 'ERR_NOT_FOUND') throw new SkillError('ERR_PAGE_NOT_FOUND', `There is no page ${path}. Select the code you want explained and ask again.`)
    throw error
  }
  const all = codeBlocks(content).filter((block) => block.code.trim())
  if (all.length === 0) throw new SkillError('ERR_NO_CODE', `${path} has no code blocks. Select the code you want explained, then ask again.`)
  const blocks: Code['blocks'] = []
  let size = 0
  for (const block of all) {
    if (blocks.length > 0 && size + block.code.length > CODE_BUDGET) break
    blocks.push({ language: block.language, code: block.code.slice(0, CODE_BUDGET) })
    size += block.code.length
  }
  return { path, blocks, omitted: all.length - blocks.length }
}

function fenced(block: { language: string; code: string }): string {
  const longest = Math.max(2, ...(block.code.match(/`+/g) ?? []).map((run) => run.length))
  const fence = '`'.repeat(longest + 1)
  return `${fence}${block.language}\n${block.code.replace(/\n$/, '')}\n${fence}`
}

/** explain: the selected code, or the page's code blocks → a streamed explanation. */
export const explainSkill = defineSkill({
  name: 'explain',
  intents: ['explain_code'],
  needsModel: true,
  params: ['path'],
  commands: [
    {
      name: 'explain',
      description: 'Explain the selected code or this page’s code',
      help: "**/explain** — explain the selected code or this page's code blocks",
      order: 60,
      parse: (_argument, context) => ({ params: context.currentFile ? { path: context.currentFile } : {} }),
    },
  ],
  patterns: { rules: [explainRule], order: 50 },
  title: (inputs) => (inputs.selectedText ? 'Explain the selected code' : `Explain the code in ${inputs.params.path ?? inputs.currentFile ?? 'this page'}`),
  steps: [
    {
      id: 'collect',
      title: 'Collecting the code',
      async run(context): Promise<Code> {
        const selection = context.inputs.selectedText?.trim()
        const path = context.inputs.params.path ?? context.inputs.currentFile ?? null
        if (selection) return { path, blocks: [{ language: '', code: selection }], omitted: 0 }
        if (!path) throw new SkillError('ERR_NO_CODE', 'Select the code you want explained, or open a page with code blocks, then ask again.')
        return pageCode(context, path)
      },
    },
    {
      id: 'explain',
      title: 'Explaining the code',
      async run(context): Promise<{ explanation: string }> {
        const { path, blocks, omitted } = context.output<Code>('collect')
        const note = omitted ? `\n\n(${omitted} more code block${omitted === 1 ? '' : 's'} on the page left out for length.)` : ''
        const explanation = await streamReply(context, {
          messages: [
            system(
              'Explain the code below to a reader of the blog: what it does, then how it works step by step, then anything surprising ' +
                '(edge cases, pitfalls, performance). Refer to short fragments in inline code; do not repeat the whole code. ' +
                'With several blocks, explain each in turn under a short heading.',
            ),
            user(`Request: ${context.inputs.text}${path ? `\nPage: ${path}` : ''}\n\n${blocks.map(fenced).join('\n\n')}${note}`),
          ],
          temperature: 0.2,
        })
        return { explanation }
      },
    },
  ],
})
