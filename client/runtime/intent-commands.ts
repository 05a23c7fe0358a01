// Slash commands: the author said exactly what they want, so these are certain.
import { cleanPhrase, extractModifiers, findPath, resolveTarget, takeAdjectives } from './intent-params'
import type { Intent, IntentMatch, IntentParams, RouteContext } from './intent-types'

type CommandHandler = (argument: string, context: RouteContext) => { intent: Intent; params: IntentParams }

function withText<K extends 'topic' | 'instruction' | 'query'>(key: K, text: string): Pick<IntentParams, K> {
  const value = cleanPhrase(text)
  return (value === '' ? {} : { [key]: value }) as Pick<IntentParams, K>
}

function write(argument: string): { intent: Intent; params: IntentParams } {
  const { rest, ...modifiers } = extractModifiers(argument)
  // "/write a short post about X" reads like the sentence; "/write X" is just the topic.
  const sentence = /^(?:(?:a|an)\s+)?(.*?)\b(?:blog\s+post|post|article)\s+(?:about|on)\s+(.+)$/i.exec(rest)
  if (sentence) takeAdjectives(sentence[1] ?? '', modifiers)
  return { intent: 'write_article', params: { ...modifiers, ...withText('topic', sentence?.[2] ?? rest) } }
}

function edit(argument: string, context: RouteContext): { intent: Intent; params: IntentParams } {
  const path = findPath(argument)
  const instruction = path === undefined ? argument : argument.replace(/(?:\.\/|\/)?\S+\.md\s*:?/u, '')
  const target = path ?? context.currentFile
  return { intent: 'edit_content', params: { ...(target ? { path: target } : {}), ...withText('instruction', instruction) } }
}

const COMMANDS: Record<string, CommandHandler> = {
  write: write,
  draft: write,
  edit: edit,
  summarize: (argument, context) => ({ intent: 'summarize', params: resolveTarget(argument, context).params }),
  summarise: (argument, context) => ({ intent: 'summarize', params: resolveTarget(argument, context).params }),
  research: (argument) => ({ intent: 'research', params: withText('query', argument) }),
  search: (argument) => ({ intent: 'research', params: withText('query', argument) }),
  graph: () => ({ intent: 'update_graph', params: {} }),
  explain: (_argument, context) => ({
    intent: 'explain_code',
    params: context.currentFile ? { path: context.currentFile } : {},
  }),
  ask: (argument) => ({ intent: 'answer_question', params: withText('query', argument) }),
  delete: (argument, context) => ({ intent: 'delete_article', params: resolveTarget(argument, context).params }),
  help: () => ({ intent: 'help', params: {} }),
}

const COMMAND_PATTERN = /^\/([a-z]+)(?:\s+(.*))?$/is

/** Parses `/name argument`; an unknown name becomes help that names it. Not a command → undefined. */
export function matchCommand(text: string, context: RouteContext): IntentMatch | undefined {
  const match = COMMAND_PATTERN.exec(text)
  if (!match) return undefined
  const name = (match[1] ?? '').toLowerCase()
  const argument = (match[2] ?? '').trim()
  const handler = Object.hasOwn(COMMANDS, name) ? COMMANDS[name] : undefined
  if (handler === undefined) return { intent: 'help', confidence: 1, params: { unknownCommand: name } }
  return { ...handler(argument, context), confidence: 1 }
}

export const COMMAND_NAMES: readonly string[] = Object.keys(COMMANDS)
