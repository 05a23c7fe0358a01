// What an AgentRuntime is built from: the API, the model client, skills and tools, and the page's state.
import type OpenAI from 'openai'
import type { MetaBlogApi } from '../api/metablog-api'
import type { PromptsResponse } from '../api/prompts'
import type { SessionsApi } from '../api/sessions'
import type { EventBus, MetaBlogEvents } from '../event-bus'
import type { ApprovalMode } from './approvals'
import type { Tool } from './define-tool'
import type { Logger } from './logger'
import type { ChatState, Skill } from './types'

export interface AgentRuntimeOptions {
  api: MetaBlogApi
  /** The OpenAI client pointed at the gateway; null when the page has none. */
  llm?: OpenAI | null
  skills?: readonly Skill[]
  state?: ChatState
  bus?: EventBus<MetaBlogEvents>
  logger?: Logger
  approvalMode?: ApprovalMode
  watchdogMs?: number
  /** This browser tab's id (default: kept in sessionStorage, so it survives reloads). */
  tabId?: string
  /** The agent's tools: with them, free text that no recipe claims goes to the tool loop. */
  tools?: readonly Tool[]
  /** Model turns one agent request may take (default 10). */
  maxSteps?: number
  /** Context windows by model name (or "*"), in tokens, over the built-in table. */
  contextWindows?: Readonly<Record<string, number>>
  /** The session-log routes: every turn is appended there. */
  sessions?: SessionsApi | null
  /** Lists the author's prompt files (GET /prompts). */
  loadPrompts?: (signal?: AbortSignal) => Promise<PromptsResponse>
}
