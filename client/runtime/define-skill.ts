// A skill owns its words: slash commands, keyword patterns, the params it takes and its help
// line. The router, the classifier prompt, /help and the slash menu are derived from them.
import type { Intent, IntentMatch, IntentParams, RouteContext } from './intent-types'
import type { Skill } from './types'

export interface SkillCommand {
  /** Typed after the slash, lowercase: `write` for /write. */
  name: string
  /** What follows the command, as the menu hints it ("topic"). */
  argument?: string
  /** One line for the slash menu. */
  description: string
  /** The /help line (Markdown); none: the command is not in the help. */
  help?: string
  /** Understood but not offered in the slash menu (aliases, destructive commands). */
  hidden?: boolean
  /** Where the command sits in the menu and the help: lower first. */
  order?: number
  /** What follows the command as the skill's params; the intent defaults to the skill's first. */
  parse?(argument: string, context: RouteContext): { intent?: Intent; params: IntentParams }
}

/** A keyword rule: `text` is cleaned of trailing punctuation and particles, `typed` is as the author typed it. */
export type PatternRule = (text: string, context: RouteContext, typed: string) => IntentMatch | undefined

export interface SkillPatterns {
  /** English phrasings; named groups (`(?<query>…)`) become params. A match is worth 0.9. */
  en?: readonly RegExp[]
  /** Chinese phrasings, the same way. */
  zh?: readonly RegExp[]
  /** Rules that work out params themselves (both languages at once). */
  rules?: readonly PatternRule[]
  /** Anchored, specific skills go first ("delete the post about graphs" is not a graph request): lower first. */
  order?: number
}

const PARAM_NAMES = new Set(['topic', 'style', 'pageHint', 'instruction', 'query', 'path'])

/** A regular-expression pattern as a rule: its named groups are the params. */
export function regexRule(pattern: RegExp, intent: Intent): PatternRule {
  return (text) => {
    const match = pattern.exec(text)
    if (!match) return undefined
    const params: IntentParams = {}
    for (const [name, value] of Object.entries(match.groups ?? {})) {
      if (PARAM_NAMES.has(name) && value?.trim()) (params as Record<string, string>)[name] = value.trim()
    }
    return { intent, confidence: 0.9, params }
  }
}

/** Checks a skill's vocabulary once, where it is defined: a typo here would otherwise be a silent dead command. */
export function defineSkill(skill: Skill): Skill {
  if (skill.intents.length === 0) throw new Error(`Skill "${skill.name}" needs at least one intent.`)
  const names = new Set<string>()
  for (const command of skill.commands ?? []) {
    if (!/^[a-z]+$/.test(command.name)) throw new Error(`Skill "${skill.name}": command "/${command.name}" must be lowercase letters only.`)
    if (names.has(command.name)) throw new Error(`Skill "${skill.name}" defines /${command.name} twice.`)
    names.add(command.name)
  }
  return skill
}
