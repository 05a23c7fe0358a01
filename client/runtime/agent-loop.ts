// The tool loop: model → tool calls → results → model, at most `maxSteps` model turns. Every
// model turn and tool result is recorded (checkpointed), so a resumed loop reuses them.
import type { ChatCompletionMessageParam } from 'openai/resources'
import { SkillError, errorCode } from '../api/errors'
import { agentPrompt, blogShape, type BlogShape } from './agent-prompt'
import { toolSpecs, type Tool, type ToolContext } from './define-tool'
import { runToolCalls, toolResultTexts, type SaveChain } from './agent-tool-calls'
import { NO_MODEL } from './messages'
import type { ModelPort, ModelTurn, SkillContext } from './types'
import { COMPACT_AT } from './conversation/context-window'
import { isContextLengthError } from './conversation/context-length-error'
import { withAttachments } from './conversation/mentions'
import { estimateRequest } from './conversation/tokens'
import type { HistoryEntry } from './conversation/turns'

export const DEFAULT_MAX_STEPS = 10

/** How often a tool call the model is still writing updates the progress line, in ms. */
const TOOL_PROGRESS_MS = 200

/** Tokens kept free for the summary of compacted turns. */
const SUMMARY_ROOM = 400

/** The conversation the loop runs in: its budget and how to compact it. */
export interface ConversationPort {
  /** The model's context window, in tokens. */
  window(model: string): number
  /** Summarises older turns; the new history, or null when there was nothing to summarise. */
  compact(model: ModelPort, reason: 'budget' | 'overflow', taskId: string, keepTokens?: number): Promise<HistoryEntry[] | null>
}

export interface AgentLoopOptions {
  tools: readonly Tool[]
  maxSteps: number
  conversation?: ConversationPort
}

export interface AgentLoopResult {
  text: string
  steps: number
  /** Whether the loop hit `maxSteps` before the model gave a final answer. */
  stopped: boolean
}

/** The tools a mode offers: plan mode reads only. */
export function offeredTools(tools: readonly Tool[], mode: string | undefined): Tool[] {
  return mode === 'plan' ? tools.filter((tool) => tool.category === 'read') : [...tools]
}

/** A stop condition, as a tiny predicate (vercel/ai's stepCountIs). */
export const stepCountIs = (limit: number) => (steps: number) => steps >= limit

function assistantMessage(turn: ModelTurn): ChatCompletionMessageParam {
  if (turn.toolCalls.length === 0) return { role: 'assistant', content: turn.text }
  return {
    role: 'assistant',
    content: turn.text || null,
    // Broken arguments go back as {}: some providers refuse a request whose history holds invalid JSON.
    tool_calls: turn.toolCalls.map((call) => ({ id: call.id, type: 'function', function: { name: call.name, arguments: call.arguments ? call.rawArguments : '{}' } })),
  }
}

function historyMessages(history: readonly HistoryEntry[]): ChatCompletionMessageParam[] {
  return history.map((entry) => ({ role: entry.role, content: entry.text }) as ChatCompletionMessageParam)
}

/** A request's estimated tokens, each message counted once (not the whole history again at every step). */
function tokenCounter(specs: ReturnType<typeof toolSpecs>): (messages: readonly ChatCompletionMessageParam[]) => number {
  const counted = new WeakMap<ChatCompletionMessageParam, number>()
  const toolTokens = estimateRequest([], specs)
  return (messages) =>
    messages.reduce((sum, message) => {
      let tokens = counted.get(message)
      if (tokens === undefined) counted.set(message, (tokens = estimateRequest([message])))
      return sum + tokens
    }, toolTokens)
}

/** A provider that refuses the `tools` parameter: the model cannot call tools, which the author can fix. */
function noToolsError(error: unknown, model: string): SkillError | undefined {
  if (errorCode(error) !== 'ERR_LLM_BAD_REQUEST' || !/\btools?\b|function/i.test((error as Error).message)) return undefined
  return new SkillError(
    'ERR_LLM_NO_TOOLS',
    `The model ${model} refused the tool definitions, so it probably cannot call tools (${(error as Error).message}). Choose a model that can (gpt-4o-mini, deepseek-chat, qwen-plus, llama3.1 on Ollama) with METABLOG_MODEL, or use the slash commands: /help lists them.`,
  )
}

/** One model turn, streamed into a reply that appears with the first text (a turn of tool calls alone shows none). */
async function modelTurn(context: SkillContext, messages: ChatCompletionMessageParam[], offered: readonly Tool[]): Promise<ModelTurn> {
  if (!context.model) throw new SkillError('ERR_LLM_UNCONFIGURED', NO_MODEL)
  const mode = context.inputs.mode ?? 'ask'
  let reply: ReturnType<SkillContext['replyStream']> | null = null
  let turn: ModelTurn | undefined
  // A call's progress shows once it takes a while: the short ones (a read) would only flicker and re-render.
  let progressAt = performance.now()
  try {
    turn = await context.model.turn({ messages, tools: toolSpecs(offered), temperature: 0.2 }, {
      onText: (delta) => {
        reply ??= context.replyStream()
        reply.append(delta)
      },
      // Also keeps the watchdog quiet while a slow model writes a long call (a whole new page).
      onToolCallProgress: (name, characters) => {
        if (performance.now() - progressAt < TOOL_PROGRESS_MS) return
        progressAt = performance.now()
        context.progress(`Writing the ${name || 'tool'} call… ${characters.toLocaleString('en-US')} characters`)
      },
    })
    return turn
  } catch (error) {
    throw noToolsError(error, context.model.model) ?? error
  } finally {
    const final = turn !== undefined && turn.toolCalls.length === 0
    // A plan-mode final answer is the plan: its reply carries the "Run this plan" action.
    const plan = mode === 'plan' && final ? turn!.text.trim() : ''
    // The request's tokens and cost show once, under its final answer.
    ;(reply as ReturnType<SkillContext['replyStream']> | null)?.done({ mode, ...(plan ? { plan } : {}), ...(final ? {} : { cost: undefined }) })
  }
}

export async function runAgentLoop(context: SkillContext, options: AgentLoopOptions): Promise<AgentLoopResult> {
  const { inputs } = context
  const mode = inputs.mode ?? 'ask'
  // A custom prompt's allow-list narrows what the mode offers.
  const offered = offeredTools(options.tools, mode).filter((tool) => !inputs.tools || inputs.tools.includes(tool.name))
  const shape =
    context.recorded<BlogShape>('shape') ??
    blogShape((await context.api.listPages({ signal: context.signal })).pages, inputs.currentFile)
  const messages: ChatCompletionMessageParam[] = [
    { role: 'system', content: agentPrompt({ shape, mode, currentFile: inputs.currentFile, selectedText: inputs.selectedText }) },
    ...historyMessages(inputs.history ?? []),
    { role: 'user', content: withAttachments(inputs.text, inputs.attachments) },
  ]
  let historyLength = inputs.history?.length ?? 0
  const specs = toolSpecs(offered)
  const { conversation } = options
  /** Swaps the history part of the request for a compacted one; false when nothing could be compacted. */
  async function compact(reason: 'budget' | 'overflow'): Promise<boolean> {
    if (!conversation || !context.model) return false
    context.progress('Compacting the conversation…')
    // The verbatim turns get what the budget leaves after this turn's own messages and room for the summary.
    const ownTokens = estimateRequest([messages[0]!, ...messages.slice(1 + historyLength)], specs)
    const room = Math.floor(COMPACT_AT * conversation.window(context.model.model)) - ownTokens - SUMMARY_ROOM
    const history = await conversation.compact(context.model, reason, context.taskId, Math.max(0, room))
    if (!history) return false
    messages.splice(1, historyLength, ...historyMessages(history))
    historyLength = history.length
    return true
  }
  const requestTokens = tokenCounter(specs)
  /** Whether the next request would pass the share of the window at which older turns are compacted. */
  const overBudget = () => conversation !== undefined && context.model !== null && requestTokens(messages) > COMPACT_AT * conversation.window(context.model.model)
  const toolContext: ToolContext = {
    signal: context.signal,
    api: context.api,
    pages: context.pages,
    approve: (proposal) => context.approve(proposal, mode),
  }
  const resultText = toolResultTexts(options.tools)
  const done = stepCountIs(options.maxSteps)
  // The last record's save. It overlaps the next model request and the reads after it (the author
  // waits for the model, not the disk), and is awaited before any write starts and before the loop ends.
  const saves: SaveChain = { saved: context.recorded('shape') ? Promise.resolve() : context.record('shape', shape) }
  // The save that carried the previous turn: the loop runs at most a turn ahead of what is saved, so a
  // stalled server costs at most one paid turn again if the tab then goes away.
  let previousTurnSaved: Promise<void> = Promise.resolve()
  for (let step = 0; !done(step); step++) {
    context.progress(step === 0 ? 'Thinking…' : `Step ${step + 1} of at most ${options.maxSteps}`)
    let turn = context.recorded<ModelTurn>(`turn-${step}`)
    if (!turn) {
      // Checked before every request: tool results can push a long conversation over the budget mid-turn.
      if (overBudget()) await compact('budget')
      try {
        turn = await modelTurn(context, messages, offered)
      } catch (error) {
        // One compaction and one retry: a second overflow is the author's to see, never a loop.
        if (!isContextLengthError(error) || !(await compact('overflow'))) throw error
        turn = await modelTurn(context, messages, offered)
      }
      // Not waited for: read tools run while it is sent (a write waits for it, in runToolCalls). The
      // saves go one at a time, each with every record so far, so a resume never sees this turn
      // without the results it was asked with, even when their save has not landed yet.
      await previousTurnSaved
      saves.saved = previousTurnSaved = context.record(`turn-${step}`, turn)
    }
    messages.push(assistantMessage(turn))
    if (turn.toolCalls.length === 0) {
      await saves.saved
      return { text: turn.text, steps: step + 1, stopped: false }
    }
    const outcomes = await runToolCalls(context, turn.toolCalls, { step, tools: options.tools, offered, toolContext }, saves)
    turn.toolCalls.forEach((call, index) => messages.push({ role: 'tool', tool_call_id: call.id, content: resultText(call, outcomes[index]!) }))
  }
  await saves.saved
  return { text: '', steps: options.maxSteps, stopped: true }
}
