import { connectionFromPage } from '../api/connection'
import { createLlmClient } from '../api/llm-client'
import { createMetaBlogApi } from '../api/metablog-api'
import { eventBus } from '../event-bus'
import { builtinSkills } from '../skills'
import { AgentRuntime } from './agent-runtime'
import type { ChatState } from './types'

let pageRuntime: AgentRuntime | null | undefined

/**
 * The page's one AgentRuntime, built on first use from the dev page's connection; null on a page
 * without the dev-server API. Tests and other hosts construct their own `new AgentRuntime(...)`.
 */
export function getAgentRuntime(state: ChatState): AgentRuntime | null {
  if (pageRuntime === undefined) {
    const connection = connectionFromPage()
    pageRuntime = connection
      ? new AgentRuntime({ api: createMetaBlogApi(connection), llm: createLlmClient(connection), skills: builtinSkills, state, bus: eventBus })
      : null
  }
  return pageRuntime
}
