import { connectionFromPage } from '../api/connection'
import { createLlmClient } from '../api/llm-client'
import { observeChatRequests } from '../api/request-outcome'
import { createMetaBlogApi } from '../api/metablog-api'
import { createSessionsApi } from '../api/sessions'
import { fetchPrompts } from '../api/prompts'
import { eventBus } from '../event-bus'
import { builtinSkills } from '../skills'
import { builtinTools } from '../tools'
import { PageWrites } from '../stores/page-writes'
import { AgentRuntime } from './agent-runtime'
import type { ChatState } from './types'

let pageRuntime: AgentRuntime | null | undefined

/** The page's writes, with what they replaced, for the panel's Undo. */
export const pageWrites = new PageWrites()

/** The `agent.maxSteps` option from withMetaBlog, if the page was built with it. */
function configuredMaxSteps(): number | undefined {
  return typeof __METABLOG_AGENT_MAX_STEPS__ === 'number' ? __METABLOG_AGENT_MAX_STEPS__ : undefined
}

/** The `agent.contextWindows` option from withMetaBlog, if the page was built with it. */
function configuredContextWindows(): Record<string, number> | undefined {
  return typeof __METABLOG_AGENT_CONTEXT_WINDOWS__ === 'object' ? __METABLOG_AGENT_CONTEXT_WINDOWS__ : undefined
}

/**
 * The page's one AgentRuntime, built on first use from the dev page's connection; null on a page
 * without the dev-server API. Tests and other hosts construct their own `new AgentRuntime(...)`.
 */
export function getAgentRuntime(state: ChatState): AgentRuntime | null {
  if (pageRuntime === undefined) {
    const connection = connectionFromPage()
    pageRuntime = connection
      ? new AgentRuntime({
          api: pageWrites.wrap(createMetaBlogApi(connection)),
          llm: createLlmClient({ ...connection, fetch: observeChatRequests((input, init) => fetch(input, init), (outcome) => eventBus.emit('llm:request', outcome)) }),
          skills: builtinSkills,
          tools: builtinTools,
          maxSteps: configuredMaxSteps(),
          contextWindows: configuredContextWindows(),
          sessions: createSessionsApi(connection),
          loadPrompts: (signal) => fetchPrompts(connection, signal),
          state,
          bus: eventBus,
        })
      : null
  }
  return pageRuntime
}
