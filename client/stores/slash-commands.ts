// The slash menu offers what /help lists: both come from the registered skills' commands.
import type { SkillCommand } from '../runtime/define-skill'
import type { Skill } from '../runtime/types'
import type { SlashCommand } from '../runtime/vocabulary'

const DEFAULT_ORDER = 1000

/** The words a help line puts between its command and its dash ("a page" for /delete), without the article. */
export function argumentFromHelp(help: string): string | undefined {
  const words = /^\*\*\/[a-z]+\*\*\s+(?:an?\s+|the\s+)?([^—–-]+?)\s*[—–-]/i.exec(help)?.[1]?.trim()
  return words || undefined
}

/**
 * The runtime's menu plus every command that has a /help line but was kept out of the menu
 * (a destructive one like /delete), each at its place in the skills' order.
 */
export function offeredCommands(menu: readonly SlashCommand[], skills: readonly Skill[]): SlashCommand[] {
  const orders = new Map<string, number>()
  const missing: { command: SkillCommand; order: number }[] = []
  skills.forEach((skill, index) => {
    for (const command of skill.commands ?? []) {
      const order = command.order ?? DEFAULT_ORDER + index
      if (!orders.has(command.name)) orders.set(command.name, order)
      if (command.hidden && command.help && !menu.some((entry) => entry.name === command.name)) missing.push({ command, order })
    }
  })
  const offered = [...menu]
  for (const { command, order } of missing.sort((a, b) => a.order - b.order)) {
    if (offered.some((entry) => entry.name === command.name)) continue
    // Before the first entry that sorts later, or that no skill orders (/compact, prompts, /help).
    const at = offered.findIndex((entry) => (orders.get(entry.name) ?? Number.MAX_SAFE_INTEGER) > order)
    const argument = argumentFromHelp(command.help!)
    const entry: SlashCommand = { name: command.name, ...(argument ? { argument } : {}), description: command.description }
    offered.splice(at === -1 ? offered.length : at, 0, entry)
  }
  return offered
}

/** Enter on a menu entry sends when the draft already is that command, or when it takes nothing after it. */
export function entersSends(draft: string, command: SlashCommand): boolean {
  return draft.trim().slice(1).toLowerCase() === command.name || !command.argument
}
