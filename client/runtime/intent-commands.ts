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

/** A typo this many edits away from a command still gets a suggestion. */
const MAX_TYPO_EDITS = 2

/** Single-letter inserts, deletes and replacements that turn `from` into `to` (Levenshtein). */
function editDistance(from: string, to: string): number {
  let previous = Array.from({ length: to.length + 1 }, (_, column) => column)
  for (let row = 1; row <= from.length; row++) {
    const current = [row]
    for (let column = 1; column <= to.length; column++) {
      const replace = previous[column - 1]! + (from[row - 1] === to[column - 1] ? 0 : 1)
      current[column] = Math.min(previous[column]! + 1, current[column - 1]! + 1, replace)
    }
    previous = current
  }
  return previous[to.length]!
}

/** The command a typo most likely meant ("delte" → "delete"); none when every command is too far off. */
export function closestCommand(name: string): string | undefined {
  let best: string | undefined
  // Fewer edits than letters: "ok" is not a typo of "ask".
  let bestDistance = Math.min(MAX_TYPO_EDITS, name.length - 1) + 1
  for (const command of COMMAND_NAMES) {
    const distance = editDistance(name.toLowerCase(), command)
    if (distance < bestDistance) [best, bestDistance] = [command, distance]
  }
  return best
}

/** What to say before the help when `/name` is not a command. */
export function unknownCommandNote(name: string): string {
  const suggestion = closestCommand(name)
  return `\`/${name}\` isn't a command.${suggestion ? ` Did you mean \`/${suggestion}\`?` : ''}`
}
