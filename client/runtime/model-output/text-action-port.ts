// A model port that speaks the text action protocol when the model can't call tools, so the agent
// loop sees the same {text, toolCalls} turns either way and runs every call through its usual path.
import { errorCode } from '../../api/errors'
import type { ModelPort, ModelRequest, ModelTurn, TurnHandlers } from '../types'
import { parseTextActions, toTextProtocol, visibleText } from './text-actions'

/** What is known about which models take the `tools` parameter; the runtime's model status implements it. */
export interface ToolSupport {
  /** Whether the model is known to take no tools: its preset says so, or it refused them in this page. */
  lacksTools(model: string): boolean
  /** Remembers a refusal for the rest of the page's life (every later request goes straight to text). */
  markNoTools(model: string): void
}

/** Support that only learns from refusals, for runtimes built without a model status. */
export function createToolSupport(): ToolSupport {
  const refused = new Set<string>()
  return { lacksTools: (model) => refused.has(model), markNoTools: (model) => void refused.add(model) }
}

/** The gateway's ERR_LLM_NO_TOOLS, or a provider's 400 that names tools in words the gateway did not know. */
export function isNoToolsError(error: unknown): boolean {
  const code = errorCode(error)
  if (code === 'ERR_LLM_NO_TOOLS') return true
  return code === 'ERR_LLM_BAD_REQUEST' && /\btools?\b|function.?call/i.test((error as Error).message)
}

export type TextActionReason = 'known' | 'refused'

/**
 * `port`, with tool turns in the text protocol when `support` says the model takes no tools, or after
 * the model refuses them (the same turn is then asked again in text). `onTextMode` hears once why.
 */
export function withTextActions(port: ModelPort, support: ToolSupport, onTextMode: (reason: TextActionReason) => void): ModelPort {
  let told = false
  const tell = (reason: TextActionReason) => {
    if (!told) onTextMode(reason)
    told = true
  }

  async function textTurn(request: ModelRequest, handlers: TurnHandlers): Promise<ModelTurn> {
    const tools = request.tools ?? []
    let shown = ''
    // Only the prose is streamed to the panel: action blocks are calls, shown as tool rows.
    const show = (all: string, final: boolean) => {
      const visible = visibleText(all, final)
      if (visible.length > shown.length && visible.startsWith(shown)) {
        handlers.onText?.(visible.slice(shown.length), visible)
        shown = visible
      }
    }
    const { tools: _tools, ...plain } = request
    const turn = await port.turn({ ...plain, messages: toTextProtocol(request.messages, tools) }, {
      ...(handlers.onReasoning ? { onReasoning: handlers.onReasoning } : {}),
      onText: (_delta, all) => show(all, false),
    })
    show(turn.text, true)
    const parsed = parseTextActions(turn.text, tools.map((tool) => (tool.type === 'function' ? tool.function.name : '')))
    return { ...turn, text: parsed.text, toolCalls: parsed.toolCalls, finishReason: parsed.toolCalls.length ? 'tool_calls' : turn.finishReason }
  }

  return {
    model: port.model,
    complete: (request, handlers) => port.complete(request, handlers),
    async turn(request, handlers = {}) {
      if (!request.tools?.length) return port.turn(request, handlers)
      if (support.lacksTools(port.model)) {
        tell('known')
        return textTurn(request, handlers)
      }
      try {
        return await port.turn(request, handlers)
      } catch (error) {
        if (!isNoToolsError(error)) throw error
        // A refusal arrives before any text: nothing was shown or paid for, so the turn is simply asked again.
        support.markNoTools(port.model)
        tell('refused')
        return textTurn(request, handlers)
      }
    },
  }
}
