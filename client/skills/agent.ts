// The conversation: free text goes to the tool loop, which reads, searches and proposes changes.
import { DEFAULT_MAX_STEPS, runAgentLoop, type ConversationPort } from '../runtime/agent-loop'
import type { Tool } from '../runtime/define-tool'
import { createToolSupport, foldedReasoning, showingReasoning, withTextActions, type TextActionReason, type ToolSupport } from '../runtime/model-output'
import type { ModelPort, Skill, SkillContext } from '../runtime/types'

export const AGENT_SKILL = 'agent'

/** What a plan-mode answer becomes when the author runs it: an ask-mode request carrying the plan. */
export function planRequest(plan: string): string {
  return `Carry out this plan, step by step:\n\n${plan}`
}

/** The panel's note when the agent works through text actions. */
export function textActionNote(model: string, reason: TextActionReason): string {
  const why = reason === 'refused' ? `refused the tool definitions` : `cannot call tools through the API`
  return `**Note:** \`${model}\` ${why}, so I am working through a plain-text action protocol instead: I write each step as an \`action\` block and run it here, with the same approvals. It is slower and less reliable than native tool calls; a model with tool support (e.g. gpt-4o-mini, deepseek-chat, qwen-plus, llama3.1) does better.`
}

/** The task's model as the loop gets it: its reasoning shown folded, its tool turns in text when it takes no tools. */
function agentModel(context: SkillContext, support: ToolSupport): ModelPort | null {
  if (!context.model) return null
  const folded = showingReasoning(context.model, (reasoning) => context.say(foldedReasoning(reasoning)))
  return withTextActions(folded, support, (reason) => context.say(textActionNote(context.model!.model, reason)))
}

export function createAgentSkill(options: { tools: readonly Tool[]; maxSteps?: number; conversation?: ConversationPort; toolSupport?: ToolSupport }): Skill {
  const maxSteps = options.maxSteps ?? DEFAULT_MAX_STEPS
  const support = options.toolSupport ?? createToolSupport()
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
          const result = await runAgentLoop({ ...context, model: agentModel(context, support) }, { tools: options.tools, maxSteps, conversation: options.conversation })
          if (result.stopped) context.say(`Stopped after ${maxSteps} steps without a final answer. Ask me to continue, or narrow the request.`)
          return { text: result.text, steps: result.steps, stopped: result.stopped }
        },
      },
    ],
  }
}
