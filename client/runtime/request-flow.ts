// A request from the panel: understood (slash command, pattern, classifier, or the agent), answered
// without a task when it needs no task (help, a question back, the setup card), else run as a
// recipe with its own inputs or as an agent turn carrying the conversation, mode and attachments.
import type { MetaBlogApi } from '../api/metablog-api'
import type { EventBus, MetaBlogEvents } from '../event-bus'
import type { ApprovalMode } from './approvals'
import type { Conversation } from './conversation/conversation'
import { matchPrompt, type CustomPrompts } from './conversation/custom-prompts'
import { attachmentNote, readAttachments } from './conversation/mentions'
import { describeFailure } from './failure'
import type { IntentRouter, RouteContext } from './intent-router'
import type { Logger } from './logger'
import { BUSY, pushNote } from './messages'
import { AGENT_PARSE, replyInstead, routeRequest } from './route-request'
import type { StateMachine } from './state-machine'
import { showFailure } from './task-outcome'
import type { TaskSlot } from './task-slot'
import type { ChatState, Skill, TaskInputs, TaskRecord } from './types'

export interface RequestHost {
  api: MetaBlogApi
  state: ChatState
  bus: EventBus<MetaBlogEvents>
  logger: Logger
  machine: StateMachine
  slot: TaskSlot
  router: IntentRouter
  conversation: Conversation
  prompts: CustomPrompts
  skills: ReadonlyMap<string, Skill>
  watchdogMs: number
  /** The panel's mode, for a request that names none. */
  mode: ApprovalMode
  /** Whether free text may go to the agent's tool loop (asked once the model status is loaded). */
  agentReady(): boolean
  modelReady(): boolean
  /** /help beyond the skills' own. */
  extraHelp(): string
  initialize(): Promise<void>
  showSetup(): void
}

export async function handleRequest(host: RequestHost, text: string, context: RouteContext, options: { mode?: ApprovalMode }): Promise<TaskRecord | null> {
  const { state, logger, machine, slot, conversation } = host
  logger.log('agent.input.received', { text, currentFile: context.currentFile, selectedText: context.selectedText })
  // Checked before the first await, so two quick sends cannot both start a task.
  if (slot.busy) {
    pushNote(state, BUSY)
    return null
  }
  const custom = matchPrompt(text, host.prompts.list, context)
  const mode = custom?.prompt.mode ?? options.mode ?? host.mode
  const request = custom?.text ?? text
  const { parse, understanding } = await slot.starts(async (understanding) => {
    machine.transition('UNDERSTANDING')
    await host.initialize()
    await conversation.restoring
    conversation.request(request, { currentFile: context.currentFile, mentions: context.mentions, mode })
    return { understanding, parse: custom ? AGENT_PARSE : await routeRequest(host.router, text, context, host.agentReady()) }
  })
  // Stopped, or stuck, while the request was being understood: a late answer starts nothing.
  if (understanding.signal.aborted || machine.state !== 'UNDERSTANDING') {
    if (machine.state === 'ERROR') showFailure(host, describeFailure(understanding.signal.reason, host.watchdogMs), text)
    return null
  }
  logger.log('agent.intent.parsed', { intent: parse.intent, confidence: parse.confidence, source: parse.source })
  const skill = [...host.skills.values()].find((candidate) => candidate.intents.includes(parse.intent))
  const reply = replyInstead(parse, skill, host.router, host.modelReady(), host.extraHelp())
  if (reply !== null) {
    if (reply === 'setup') host.showSetup()
    else pushNote(state, reply.note)
    machine.transition('IDLE')
    return null
  }
  const inputs: TaskInputs = { text: request, intent: parse.intent, params: parse.params, currentFile: context.currentFile, selectedText: context.selectedText }
  const agent = parse.intent === 'agent'
  const attachments = agent && context.mentions?.length ? await readAttachments(host.api, context.mentions) : []
  if (attachments.length) pushNote(state, attachmentNote(attachments))
  // Recipes are part of the conversation too: the pages they wrote are what "it" means next.
  const written: string[] = []
  const unsubscribe = host.bus.on('file:written', ({ path }) => written.push(path))
  let record: TaskRecord
  try {
    const allowed = custom?.prompt.tools ? { tools: custom.prompt.tools } : {}
    record = await slot.run(skill!, agent ? { ...inputs, mode, history: conversation.history(), ...allowed, ...(attachments.length ? { attachments } : {}) } : inputs)
  } finally {
    unsubscribe()
  }
  conversation.remember({ request, skill: skill!.name, taskId: record.taskId, written, mentions: attachments.map((page) => page.path) }, state.messages)
  return record
}
