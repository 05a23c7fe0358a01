// How slash commands read their argument, for the skills that own them; and typo suggestions.
import { cleanPhrase, extractModifiers, findPath, resolveTarget, takeAdjectives } from './intent-params'
import { retrievalQuery } from './intent-query'
import type { Intent, IntentMatch, IntentParams, RouteContext } from './intent-types'

type CommandHandler = (argument: string, context: RouteContext) => { intent?: Intent; params: IntentParams }

function withText<K extends 'topic' | 'instruction' | 'query'>(key: K, text: string): Pick<IntentParams, K> {
  const value = cleanPhrase(text)
  return (value === '' ? {} : { [key]: value }) as Pick<IntentParams, K>
}

/** `/write a short post about X` reads like the sentence; `/write X` is just the topic. */
export const parseWriteCommand: CommandHandler = (argument) => {
  const { rest, ...modifiers } = extractModifiers(argument)
  const sentence = /^(?:(?:a|an)\s+)?(.*?)\b(?:blog\s+post|post|article)\s+(?:about|on)\s+(.+)$/i.exec(rest)
  if (sentence) takeAdjectives(sentence[1] ?? '', modifiers)
  return { params: { ...modifiers, ...withText('topic', sentence?.[2] ?? rest) } }
}

/** `/edit posts/x.md: fix typos`, or an instruction for the open page. */
export const parseEditCommand: CommandHandler = (argument, context) => {
  const path = findPath(argument)
  const instruction = path === undefined ? argument : argument.replace(/(?:\.\/|\/)?\S+\.md\s*:?/u, '')
  const target = path ?? context.currentFile
  return { params: { ...(target ? { path: target } : {}), ...withText('instruction', instruction) } }
}

/** A page named by path or title, else the open page. */
export const parseTargetCommand: CommandHandler = (argument, context) => ({ params: resolveTarget(argument, context).params })

/** `/research what have I written about X?` searches for what the sentence form would: "X". */
export const parseQueryCommand: CommandHandler = (argument) => ({ params: withText('query', argument.trim() === '' ? '' : retrievalQuery(argument)) })

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
export function closestCommand(name: string, commands: readonly string[]): string | undefined {
  let best: string | undefined
  // Fewer edits than letters: "ok" is not a typo of "ask".
  let bestDistance = Math.min(MAX_TYPO_EDITS, name.length - 1) + 1
  for (const command of commands) {
    const distance = editDistance(name.toLowerCase(), command)
    if (distance < bestDistance) [best, bestDistance] = [command, distance]
  }
  return best
}

/** What to say before the help when `/name` is not a command. */
export function unknownCommandNote(name: string, commands: readonly string[]): string {
  const suggestion = closestCommand(name, commands)
  return `\`/${name}\` isn't a command.${suggestion ? ` Did you mean \`/${suggestion}\`?` : ''}`
}
