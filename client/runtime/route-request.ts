// Which way a request goes: a recipe (slash command or confident pattern), the agent, or the
// classifier and its fallbacks; and the replies that are not tasks (help, a question back).
import { missingDetail, shouldAskUser, type IntentParse, type IntentRouter, type RouteContext } from './intent-router'
import type { Skill } from './types'

/** The parse that sends a request to the tool loop. */
export const AGENT_PARSE: IntentParse = { intent: 'agent', confidence: 1, params: {}, source: 'agent' }

/**
 * A slash command or a confident pattern runs its recipe; other text goes to the agent when it can
 * run, else to the model classifier and the old fallbacks.
 */
export async function routeRequest(router: IntentRouter, text: string, context: RouteContext, agentReady: boolean): Promise<IntentParse> {
  const local = router.parseLocally(text, context)
  // "make it shorter" with nothing selected is no job for the selection-edit recipe; the agent can read the page.
  const selectionless = local?.source === 'pattern' && local.intent === 'edit_content' && !context.selectedText && agentReady
  if (local && !selectionless && (local.source === 'command' || !shouldAskUser(local))) return local
  if (agentReady) return AGENT_PARSE
  return router.route(text, context)
}

/** Help, a guess too unsure to act on, a skill without its model, a request without its topic: a reply, not a task. */
export function replyInstead(parse: IntentParse, skill: Skill | undefined, router: IntentRouter, modelReady: boolean, promptsHelp = ''): { note: string } | 'setup' | null {
  const help = [router.vocabulary.help, promptsHelp].filter(Boolean).join('\n\n')
  const unknownCommand = parse.params.unknownCommand
  if (parse.intent === 'help') return { note: unknownCommand === undefined ? help : `${router.vocabulary.unknownCommandNote(unknownCommand)}\n\n${help}` }
  if (!skill || shouldAskUser(parse)) return { note: `I'm not sure what you'd like me to do. ${help}` }
  if (skill.needsModel && !modelReady) return 'setup'
  const question = missingDetail(parse)
  return question === undefined ? null : { note: question }
}
