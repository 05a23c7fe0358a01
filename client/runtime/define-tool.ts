// Tools the agent's model can call: defined once, arguments checked against their schema, and a
// failure returned as data the model sees (like vercel/ai's execute-tool-call), never a crash.
import type { ChatCompletionTool } from 'openai/resources'
import { errorCode } from '../api/errors'
import type { MetaBlogApi } from '../api/metablog-api'
import { validateSchema, type JsonSchema } from './json-schema'
import type { PageOperations } from './page-operations'
import type { ApprovalDecision, Proposal } from './types'

export type ToolCategory = 'read' | 'write' | 'destructive'

export interface ToolContext {
  readonly signal: AbortSignal
  readonly api: MetaBlogApi
  readonly pages: PageOperations
  /** Shows the change to the author and waits (auto-edit accepts writes at once; deletions always wait). */
  approve(proposal: Proposal): Promise<ApprovalDecision>
}

export interface Tool<Args = any, Result = unknown> {
  name: string
  description: string
  parameters: JsonSchema & { type: 'object' }
  category: ToolCategory
  execute(args: Args, context: ToolContext): Promise<Result>
  /** One line for the panel ("Read posts/x.md", "Searched "caching" — 5 pages"). */
  describe(args: Args, result?: Result): string
}

export function defineTool<Args, Result>(tool: Tool<Args, Result>): Tool<Args, Result> {
  return tool
}

/** What one call came to: its result, or an error the model can read and recover from. */
export type ToolOutcome = { ok: true; result: unknown; summary: string } | { ok: false; error: { code: string; message: string }; summary: string }

export interface ToolCallRequest {
  id: string
  name: string
  arguments: Record<string, unknown> | null
  /** Why the arguments could not be read as JSON. */
  error?: string
}

export type ToolSet = Readonly<Record<string, Tool>>

export function toolSet(tools: readonly Tool[]): ToolSet {
  return Object.fromEntries(tools.map((tool) => [tool.name, tool]))
}

/** The tools as the chat-completions request offers them. */
export function toolSpecs(tools: readonly Tool[]): ChatCompletionTool[] {
  return tools.map((tool) => ({ type: 'function', function: { name: tool.name, description: tool.description, parameters: { ...tool.parameters } as Record<string, unknown> } }))
}

function failure(code: string, message: string, summary: string): ToolOutcome {
  return { ok: false, error: { code, message }, summary }
}

/**
 * Runs one call. An unknown or unoffered tool, arguments that are not JSON or break the schema,
 * and a tool that throws all become `{ ok: false, error }`. Only a stop (the signal) propagates.
 */
export async function executeToolCall(offered: ToolSet, call: ToolCallRequest, context: ToolContext): Promise<ToolOutcome> {
  // Own names only: "constructor" or "__proto__" from a model is not a tool.
  const tool = Object.hasOwn(offered, call.name) ? offered[call.name] : undefined
  if (!tool) {
    const names = Object.keys(offered).join(', ')
    return failure('ERR_UNKNOWN_TOOL', `There is no tool "${call.name}" here. Use one of: ${names}.`, `Unknown tool ${call.name}`)
  }
  if (call.arguments === null) {
    return failure('ERR_BAD_ARGUMENTS', `The arguments for ${call.name} are not valid JSON (${call.error ?? 'unreadable'}). Send them again as one JSON object.`, `${call.name}: unreadable arguments`)
  }
  const problems = validateSchema(tool.parameters, call.arguments)
  if (problems.length > 0) {
    return failure('ERR_BAD_ARGUMENTS', `Bad arguments for ${call.name}: ${problems.join('; ')}.`, `${call.name}: bad arguments`)
  }
  try {
    const result = await tool.execute(call.arguments, context)
    return { ok: true, result, summary: tool.describe(call.arguments, result) }
  } catch (error) {
    if (context.signal.aborted) throw context.signal.reason
    const message = error instanceof Error ? error.message : String(error)
    return failure(errorCode(error) ?? 'ERR_TOOL', message, `${tool.describe(call.arguments)} — failed`)
  }
}
