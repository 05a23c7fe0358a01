import matter from 'gray-matter'
import { AGENT_TOOL_NAMES, type AgentToolName, type PromptDefinition, type PromptMode } from '../../plugin/protocol.js'
import { safeEngines } from '../front-matter-engines.js'
import { MetaBlogError } from '../errors.js'

/** A prompt is a paragraph or a page of instructions; a file past this is a mistake. */
export const MAX_PROMPT_FILE_BYTES = 64 * 1024
const COMMAND = /^[a-z][a-z0-9-]*$/
const MAX_COMMAND_LENGTH = 40
const MODES: readonly PromptMode[] = ['ask', 'plan', 'auto-edit']
const KEYS = new Set(['command', 'description', 'mode', 'tools'])
const PLACEHOLDERS = new Set(['input', 'selection', 'page'])
const TOOLS: ReadonlySet<string> = new Set(AGENT_TOOL_NAMES)
// The same hardened engines pages get: YAML only, alias bombs refused, `---js` never evaluated.
// (gray-matter's types want engines that return `object`; ours return what YAML parses to.)
const YAML_ONLY = { language: 'yaml', engines: safeEngines() } as unknown as Parameters<typeof matter>[1]

function invalid(message: string): never {
  throw new MetaBlogError('ERR_BAD_REQUEST', message)
}

function readFrontMatter(text: string): { data: Record<string, unknown>; body: string } {
  if (!text.startsWith('---')) {
    invalid('it needs front matter: start the file with a "---" line, then `command:` and `description:`, then "---".')
  }
  let parsed: { data: unknown; content: string }
  try {
    parsed = matter(text, YAML_ONLY)
  } catch (error) {
    if (error instanceof MetaBlogError) throw error
    invalid(`the front matter is not valid YAML: ${(error as Error).message.split('\n')[0]}`)
  }
  const data = parsed.data
  if (typeof data !== 'object' || data === null || Array.isArray(data)) invalid('the front matter must be YAML `key: value` lines.')
  return { data: data as Record<string, unknown>, body: parsed.content }
}

function checkTools(value: unknown): AgentToolName[] {
  if (!Array.isArray(value) || !value.every((item) => typeof item === 'string')) {
    invalid(`"tools" must be a list of tool names, e.g. [read_page, search_pages]; known: ${AGENT_TOOL_NAMES.join(', ')}.`)
  }
  const unknown = value.filter((name) => !TOOLS.has(name))
  if (unknown.length > 0) invalid(`unknown tool ${unknown.map((name) => `"${name}"`).join(', ')} in "tools"; known: ${AGENT_TOOL_NAMES.join(', ')}.`)
  return [...new Set(value)] as AgentToolName[]
}

function checkTemplate(body: string): string {
  const template = body.trim()
  if (!template) invalid('the body (the prompt sent to the model) is empty: write it below the front matter.')
  for (const [, name] of template.matchAll(/\{\{([^{}]{0,40})\}\}/g)) {
    if (!PLACEHOLDERS.has(name!)) invalid(`unknown placeholder {{${name}}}; use {{input}}, {{selection}} or {{page}} (no spaces).`)
  }
  return template
}

/** Parses and checks one prompt file; a problem throws ERR_BAD_REQUEST (or ERR_UNSAFE_CONTENT) saying how to fix it. */
export function parsePromptFile(file: string, text: string): PromptDefinition {
  if (Buffer.byteLength(text) > MAX_PROMPT_FILE_BYTES) invalid(`the file is larger than ${MAX_PROMPT_FILE_BYTES / 1024} KiB.`)
  const { data, body } = readFrontMatter(text)
  const extra = Object.keys(data).filter((key) => !KEYS.has(key))
  if (extra.length > 0) invalid(`unknown front matter key ${extra.map((key) => `"${key}"`).join(', ')}; use command, description, mode, tools.`)
  const { command, description, mode, tools } = data
  if (typeof command !== 'string' || !COMMAND.test(command) || command.length > MAX_COMMAND_LENGTH) {
    invalid(`"command" must be a slash name of lowercase letters, digits and "-", starting with a letter (e.g. tldr), at most ${MAX_COMMAND_LENGTH} characters.`)
  }
  if (typeof description !== 'string' || !description.trim()) invalid('"description" is required: one line for the slash menu.')
  if (mode !== undefined && !MODES.includes(mode as PromptMode)) invalid(`"mode" must be ${MODES.join(', ')}.`)
  const prompt: PromptDefinition = { command, description: description.trim(), template: checkTemplate(body), file }
  if (mode !== undefined) prompt.mode = mode as PromptMode
  if (tools !== undefined) prompt.tools = checkTools(tools)
  return prompt
}
