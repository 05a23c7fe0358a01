// Tool calling for models that can't: the model writes ```action {"tool": …, "arguments": {…}}``` blocks
// in its text, and they become the same tool calls a native `tool_calls` answer gives.
import type { ChatCompletionMessageParam, ChatCompletionTool } from 'openai/resources'
import type { ModelToolCall } from '../types'
import { jsonCandidates } from './json-answer'

/** A fenced block a model may put an action in; `action` is what it is asked for, the others are slips. */
const ACTION_BLOCK = /^[ \t]*(`{3,}|~{3,})[ \t]*(action|tool_call|tool|json)?[ \t]*\n([\s\S]*?)\n[ \t]*\1[ \t]*$/gim
/** An action block opened but not closed yet, at the end of a streamed answer. */
const OPEN_ACTION = /^[ \t]*(`{3,}|~{3,})[ \t]*(action|tool_call|tool)[ \t]*(\n|$)/im

let counter = 0

function actionId(): string {
  return `action-${Date.now().toString(36)}-${(counter++).toString(36)}`
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

/** `{"tool": name, "arguments": {…}}`, or the spellings models drift to (`name`, `args`, `parameters`). */
function asAction(value: unknown): { name: string; arguments: Record<string, unknown> } | null {
  if (!isObject(value)) return null
  const name = value.tool ?? value.name
  const args = value.arguments ?? value.args ?? value.parameters ?? {}
  if (typeof name !== 'string' || name.trim() === '') return null
  // Some models send the arguments as a JSON string, as the native protocol does.
  const parsed = typeof args === 'string' ? jsonCandidates(args).find(isObject) : args
  return isObject(parsed) ? { name: name.trim(), arguments: parsed } : null
}

function callOf(action: { name: string; arguments: Record<string, unknown> }): ModelToolCall {
  return { id: actionId(), name: action.name, arguments: action.arguments, rawArguments: JSON.stringify(action.arguments) }
}

/** An `action` block whose JSON could not be read is still a call: the tool's error tells the model to send it again. */
function unreadable(body: string): ModelToolCall {
  const name = /"(?:tool|name)"\s*:\s*"([^"]{1,80})"/.exec(body)?.[1] ?? 'action'
  return { id: actionId(), name, arguments: null, rawArguments: body.slice(0, 2000), error: 'the action block is not one JSON object' }
}

export interface TextActions {
  /** The answer without its action blocks. */
  text: string
  toolCalls: ModelToolCall[]
}

/**
 * The tool calls in a text answer. `action` blocks always count (unreadable ones as a call with an
 * error); a ```json block or bare JSON counts only when it names one of `toolNames`, so an answer
 * that merely shows JSON is not run.
 */
export function parseTextActions(answer: string, toolNames: readonly string[]): TextActions {
  const toolCalls: ModelToolCall[] = []
  const known = (name: string) => toolNames.includes(name)
  const text = answer.replace(ACTION_BLOCK, (block: string, _fence: string, info: string | undefined, body: string) => {
    const explicit = /^(action|tool_call|tool)$/i.test(info ?? '')
    const actions = jsonCandidates(body).flatMap((value) => (Array.isArray(value) ? value : [value])).map(asAction)
    const found = actions.find((action) => action !== null && (explicit || known(action.name)))
    if (found) {
      toolCalls.push(callOf(found))
      return ''
    }
    if (explicit) {
      toolCalls.push(unreadable(body))
      return ''
    }
    return block
  })
  if (toolCalls.length === 0) {
    // No block at all: a small model may write the JSON bare, in prose.
    const bare = jsonCandidates(text).map(asAction).find((action) => action !== null && known(action.name))
    if (bare) {
      const call = callOf(bare)
      return { text: '', toolCalls: [call] }
    }
  }
  return { text: text.replace(/\n{3,}/g, '\n\n').trim(), toolCalls }
}

/**
 * What of a streamed answer may be shown: complete action blocks removed, an open one and a line
 * that may still become one held back. `final` shows the held-back line when the stream has ended.
 */
export function visibleText(answer: string, final = false): string {
  let text = answer.replace(ACTION_BLOCK, (block: string, _fence: string, info: string | undefined) => (/^(action|tool_call|tool)$/i.test(info ?? '') ? '' : block))
  const open = OPEN_ACTION.exec(text)
  if (open) text = text.slice(0, open.index)
  else if (!final) text = text.replace(/(^|\n)[ \t]*(?:`{1,}|~{1,})[a-z_]*$/i, '$1')
  return text
}

/** The protocol, for the system message: how to write an action, and the tools with their arguments. */
export function textActionInstructions(tools: readonly ChatCompletionTool[]): string {
  const list = tools
    .filter((tool) => tool.type === 'function')
    .map((tool) => `- ${tool.function.name}: ${tool.function.description ?? ''}\n  arguments (JSON Schema): ${JSON.stringify(tool.function.parameters ?? {})}`)
  return [
    'You cannot call tools through the API here. To use a tool, write an action block: a fenced code block whose language is `action`, holding one JSON object with "tool" and "arguments", for example:',
    '```action\n{"tool": "read_page", "arguments": {"path": "posts/example.md"}}\n```',
    'You may write several action blocks in one answer. After them, stop and wait: the results come back in the next message, one per action, in order. Never write the results yourself.',
    'When you need no more tools, answer normally, without any action block.',
    'The tools:',
    ...list,
  ].join('\n')
}

function actionBlock(call: { function: { name: string; arguments: string } }): string {
  const args = jsonCandidates(call.function.arguments).find(isObject) ?? {}
  return `\`\`\`action\n${JSON.stringify({ tool: call.function.name, arguments: args })}\n\`\`\``
}

function contentText(content: unknown): string {
  if (typeof content === 'string') return content
  if (Array.isArray(content)) return content.map((part) => (isObject(part) && typeof part.text === 'string' ? part.text : '')).join('')
  return ''
}

/**
 * A tool-calling conversation in the text protocol: the instructions join the system message, the
 * assistant's tool calls become action blocks, and tool results come back as one user message per turn.
 */
export function toTextProtocol(messages: readonly ChatCompletionMessageParam[], tools: readonly ChatCompletionTool[]): ChatCompletionMessageParam[] {
  const instructions = textActionInstructions(tools)
  const out: ChatCompletionMessageParam[] = []
  const names = new Map<string, string>()
  let results: string[] = []
  const flush = () => {
    if (results.length) out.push({ role: 'user', content: `Results of your actions, in order:\n\n${results.join('\n\n')}` })
    results = []
  }
  for (const message of messages) {
    if (message.role === 'tool') {
      const name = names.get(message.tool_call_id) ?? 'the action'
      results.push(`Result of ${name}:\n${contentText(message.content)}`)
      continue
    }
    flush()
    if (message.role === 'assistant' && message.tool_calls?.length) {
      const calls = message.tool_calls.filter((call) => call.type === 'function')
      for (const call of calls) names.set(call.id, call.function.name)
      const text = contentText(message.content).trim()
      out.push({ role: 'assistant', content: [text, ...calls.map(actionBlock)].filter(Boolean).join('\n\n') })
    } else if (message.role === 'system') {
      out.push({ role: 'system', content: `${contentText(message.content)}\n\n${instructions}` })
    } else {
      out.push(message)
    }
  }
  flush()
  if (!out.some((message) => message.role === 'system')) out.unshift({ role: 'system', content: instructions })
  return out
}
