// Reasoning is the model's, not the page's: the panel shows it folded, the page never gets it.
import type { ModelPort } from '../types'

const MAX_SHOWN = 4000

/** Reasoning as a `reasoning` fence, which the chat renders folded; the fence outgrows any backticks inside. */
export function foldedReasoning(reasoning: string): string {
  const text = reasoning.trim()
  const shown = text.length > MAX_SHOWN ? `${text.slice(0, MAX_SHOWN)}…` : text
  const longest = Math.max(2, ...(shown.match(/`+/g) ?? []).map((run) => run.length))
  const fence = '`'.repeat(longest + 1)
  return `\n\n${fence}reasoning\n${shown}\n${fence}\n\n`
}

/** The same port, handing each call's reasoning to `show` once the call is done. */
export function showingReasoning(port: ModelPort, show: (reasoning: string) => void): ModelPort {
  const collect = <Handlers extends { onReasoning?: (delta: string, reasoning: string) => void }>(handlers: Handlers | undefined) => {
    let reasoning = ''
    const wrapped = { ...handlers, onReasoning: (delta: string, all: string) => ((reasoning = all), handlers?.onReasoning?.(delta, all)) } as Handlers
    return { wrapped, done: () => reasoning.trim() && show(reasoning) }
  }
  return {
    model: port.model,
    async complete(request, handlers) {
      const { wrapped, done } = collect(handlers)
      const text = await port.complete(request, wrapped)
      done()
      return text
    },
    async turn(request, handlers) {
      const { wrapped, done } = collect(handlers)
      const turn = await port.turn(request, wrapped)
      done()
      return turn
    },
  }
}

/** A message's text without its folded reasoning: what the conversation's memory keeps of it. */
export function withoutFoldedReasoning(text: string): string {
  const stripped = text.replace(/(?:^|\n)[ \t]*(`{3,})reasoning\n[\s\S]*?\n\1[ \t]*(?=\n|$)/g, '')
  // A message without a fold is kept exactly as it is.
  return stripped === text ? text : stripped.replace(/\n{3,}/g, '\n\n').trim()
}
