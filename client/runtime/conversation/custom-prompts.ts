// Custom prompts as slash commands: which one a message runs, and the request it becomes.
import type { CustomPrompt, PromptsResponse } from '../../api/prompts'
import type { SlashCommand } from '../vocabulary'

export interface PromptRun {
  prompt: CustomPrompt
  /** The request sent to the agent: the template with its placeholders filled. */
  text: string
}

/** The slash-menu entry for a prompt. */
export function promptCommand(prompt: CustomPrompt): SlashCommand {
  return { name: prompt.command, description: prompt.description, ...(prompt.template.includes('{{input}}') ? { argument: '…' } : {}) }
}

/** Fills {{input}}, {{selection}} and {{page}} (the current page's path); a placeholder with no value becomes "(none)". */
export function fillTemplate(template: string, values: { input?: string; selection?: string; page?: string }): string {
  return template.replace(/\{\{\s*(input|selection|page)\s*\}\}/g, (_, name: 'input' | 'selection' | 'page') => values[name]?.trim() || '(none)')
}

/** The custom prompt a message runs ("/name rest"), if any; built-in commands are matched before this. */
export function matchPrompt(
  text: string,
  prompts: readonly CustomPrompt[],
  context: { selectedText?: string; currentFile?: string },
): PromptRun | null {
  const match = /^\/([\w-]+)(?:\s+([^]*))?$/.exec(text.trim())
  if (!match) return null
  const prompt = prompts.find((candidate) => candidate.command.toLowerCase() === match[1]!.toLowerCase())
  if (!prompt) return null
  return { prompt, text: fillTemplate(prompt.template, { input: match[2], selection: context.selectedText, page: context.currentFile }) }
}

/** The /help section listing the author's prompts. */
export function promptsHelp(prompts: readonly CustomPrompt[]): string {
  if (prompts.length === 0) return ''
  return ['**Your prompts**', ...prompts.map((prompt) => `- \`/${prompt.command}\` — ${prompt.description} _(${prompt.file})_`)].join('\n')
}

/** The author's prompts as the dev server last listed them; a prompt named like a built-in command is refused. */
export class CustomPrompts {
  list: CustomPrompt[] = []
  help = ''

  constructor(private readonly load: ((signal?: AbortSignal) => Promise<PromptsResponse>) | null) {}

  /** Lists the prompt files again; what could not be used comes back as problems. */
  async refresh(builtins: readonly string[]): Promise<PromptsResponse> {
    return this.load ? this.set(await this.load(), builtins) : { prompts: [], problems: [] }
  }

  set(response: PromptsResponse, builtins: readonly string[]): PromptsResponse {
    const taken = new Set(builtins)
    const problems = [...response.problems]
    const prompts = response.prompts.filter((prompt) => {
      if (!taken.has(prompt.command)) return true
      problems.push({ file: prompt.file, message: `/${prompt.command} is a built-in command; give this prompt another "command".` })
      return false
    })
    this.list = prompts
    this.help = promptsHelp(prompts)
    return { prompts, problems }
  }
}
