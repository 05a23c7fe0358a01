// The conversation: free text goes to the tool loop, which reads, searches and proposes changes.
import { DEFAULT_MAX_STEPS, runAgentLoop, type ConversationPort } from '../runtime/agent-loop'
import type { Tool } from '../runtime/define-tool'
import type { Skill } from '../runtime/types'

export const AGENT_SKILL = 'agent'

/** What a plan-mode answer becomes when the author runs it: an ask-mode request carrying the plan. */
export function planRequest(plan: string): string {
  return `Carry out this plan, step by step:\n\n${plan}`
}

export function createAgentSkill(options: { tools: readonly Tool[]; maxSteps?: number; conversation?: ConversationPort }): Skill {
  const maxSteps = options.maxSteps ?? DEFAULT_MAX_STEPS
  return {
    name: AGENT_SKILL,
    intents: ['agent'],
    needsModel: true,
    title: (inputs) => (inputs.text.length > 60 ? `${inputs.text.slice(0, 57)}…` : inputs.text),
    steps: [
      {
        id: 'loop',
        title: 'Working on your request',
        async run(context) {
          const result = await runAgentLoop(context, { tools: options.tools, maxSteps, conversation: options.conversation })
          if (result.stopped) context.say(`Stopped after ${maxSteps} steps without a final answer. Ask me to continue, or narrow the request.`)
          return { text: result.text, steps: result.steps, stopped: result.stopped }
        },
      },
    ],
  }
}
