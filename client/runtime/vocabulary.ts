// What the registered skills understand, gathered once: the command table, the keyword rules in
// their order, the intents and params the classifier may answer with, /help and the slash menu.
import { closestCommand, unknownCommandNote } from './intent-commands'
import { helpRule } from './intent-patterns'
import { regexRule, type PatternRule, type SkillCommand } from './define-skill'
import type { Intent, IntentMatch, RouteContext } from './intent-types'
import type { Skill } from './types'

/** A slash command as the menu shows it. */
export interface SlashCommand {
  name: string
  argument?: string
  description: string
}

const HELP_COMMAND: SkillCommand = { name: 'help', description: 'What I can do', order: Number.MAX_SAFE_INTEGER }
const COMMAND_PATTERN = /^\/([a-z]+)(?:\s+(.*))?$/is
const DEFAULT_ORDER = 1000

interface Entry {
  skill: Skill | null
  command: SkillCommand
  order: number
}

export class Vocabulary {
  private readonly table = new Map<string, Entry>()
  private readonly rules: PatternRule[]
  readonly intents: readonly Intent[]
  readonly help: string
  readonly menu: readonly SlashCommand[]

  constructor(readonly skills: readonly Skill[]) {
    const entries: Entry[] = []
    skills.forEach((skill, index) => {
      for (const command of skill.commands ?? []) entries.push({ skill, command, order: command.order ?? DEFAULT_ORDER + index })
    })
    entries.push({ skill: null, command: HELP_COMMAND, order: HELP_COMMAND.order! })
    entries.sort((a, b) => a.order - b.order)
    // The first skill to claim a name keeps it.
    for (const entry of entries) if (!this.table.has(entry.command.name)) this.table.set(entry.command.name, entry)
    const ordered = [...this.table.values()]
    this.menu = ordered.filter(({ command }) => !command.hidden).map(({ command: { name, argument, description } }) => ({ name, ...(argument ? { argument } : {}), description }))
    this.help = ['Try one of these:', ...ordered.flatMap(({ command }) => (command.help ? [`- ${command.help}`] : []))].join('\n')
    this.rules = skills
      .map((skill, index) => ({ skill, order: skill.patterns?.order ?? DEFAULT_ORDER + index }))
      .sort((a, b) => a.order - b.order)
      .flatMap(({ skill }) => {
        const { en = [], zh = [], rules = [] } = skill.patterns ?? {}
        return [...rules, ...[...en, ...zh].map((pattern) => regexRule(pattern, skill.intents[0]!))]
      })
    this.rules.push(helpRule)
    this.intents = [...new Set([...skills.flatMap((skill) => skill.intents.filter((intent) => intent !== 'agent')), 'help'])]
  }

  get commandNames(): string[] {
    return [...this.table.keys()]
  }

  /** Parses `/name argument`; an unknown name becomes help that names it. Not a command → undefined. */
  matchCommand(text: string, context: RouteContext): IntentMatch | undefined {
    const match = COMMAND_PATTERN.exec(text)
    if (!match) return undefined
    const name = (match[1] ?? '').toLowerCase()
    const entry = this.table.get(name)
    if (!entry?.skill) return { intent: 'help', confidence: 1, params: entry ? {} : { unknownCommand: name } }
    const parsed = entry.command.parse?.((match[2] ?? '').trim(), context) ?? { params: {} }
    return { intent: parsed.intent ?? entry.skill.intents[0]!, confidence: 1, params: parsed.params }
  }

  /** The first keyword rule that recognizes `typed` (already normalized), or undefined. */
  matchPattern(typed: string, context: RouteContext, cleaned: string): IntentMatch | undefined {
    if (cleaned === '') return undefined
    for (const rule of this.rules) {
      const match = rule(cleaned, context, typed)
      if (match) return match
    }
    return undefined
  }

  closestCommand(name: string): string | undefined {
    return closestCommand(name, this.commandNames)
  }

  unknownCommandNote(name: string): string {
    return unknownCommandNote(name, this.commandNames)
  }

  /** The menu entries a draft like "/wr" could still become; none once the draft has a space or newline. */
  matchingCommands(draft: string): SlashCommand[] {
    return matchingCommands(draft, this.menu)
  }
}

export function matchingCommands(draft: string, menu: readonly SlashCommand[]): SlashCommand[] {
  const match = /^\/([a-z]*)$/i.exec(draft)
  if (!match) return []
  const typed = (match[1] ?? '').toLowerCase()
  return menu.filter((command) => command.name.startsWith(typed))
}
