// What the agent adds to the recipes' commands: /compact and the author's prompt files, in the
// slash menu and /help, and /compact itself, run outside any task.
import type OpenAI from 'openai'
import { CustomPrompts, promptCommand } from './conversation/custom-prompts'
import type { Conversation } from './conversation/conversation'
import type { CostTracker } from './cost-tracker'
import type { Logger } from './logger'
import { BUSY, messageId, pushNote } from './messages'
import { createModelPort } from './model-port'
import type { ModelStatus } from './model-status'
import type { TaskSlot } from './task-slot'
import type { ChatState } from './types'
import type { SlashCommand, Vocabulary } from './vocabulary'

/** The command that compacts the conversation on demand. */
export const COMPACT_COMMAND: SlashCommand = { name: 'compact', description: 'Summarise the older turns of this conversation to free room' }

/** The slash menu: the recipes' commands, then (with the agent) /compact and the prompts, before the last entry (/help). */
export function slashMenu(vocabulary: Vocabulary, agent: boolean, prompts: CustomPrompts): readonly SlashCommand[] {
  const menu = vocabulary.menu
  if (!agent) return menu
  return [...menu.slice(0, -1), COMPACT_COMMAND, ...prompts.list.map(promptCommand), ...menu.slice(-1)]
}

/** /help beyond the skills: /compact and the author's prompts. */
export function extraHelp(agent: boolean, prompts: CustomPrompts): string {
  if (!agent) return ''
  return [`- \`/${COMPACT_COMMAND.name}\` — ${COMPACT_COMMAND.description.toLowerCase()}`, prompts.help].filter(Boolean).join('\n\n')
}

/** Names a prompt file may not take. */
export function builtinCommands(vocabulary: Vocabulary): string[] {
  return [...vocabulary.menu.map((command) => command.name), COMPACT_COMMAND.name]
}

export interface CompactHost {
  llm: OpenAI | null
  status: ModelStatus
  slot: TaskSlot
  state: ChatState
  costs: CostTracker
  logger: Logger
  conversation: Conversation
  initialize(): Promise<void>
  showSetup(): void
}

/** `/compact`: summarises the older turns now, outside any task. */
export async function compactNow(host: CompactHost): Promise<null> {
  const { slot, state, status, llm } = host
  if (slot.busy) {
    pushNote(state, BUSY)
    return null
  }
  await host.initialize()
  const model = status.model
  if (!llm || !status.ready || !model) {
    host.showSetup()
    return null
  }
  await slot.starts(async (controller) => {
    const port = createModelPort({ client: llm, model, taskId: messageId('compact'), signal: controller.signal, costs: host.costs, logger: host.logger })
    const compaction = await host.conversation.compact(port, 'command')
    if (!compaction) pushNote(state, 'Nothing to compact yet: the conversation is short enough to keep verbatim.')
  })
  return null
}
