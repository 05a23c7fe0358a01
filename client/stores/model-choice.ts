// The panel's model picker and its status dot: which models it offers, which one the conversation uses, how the last request went.
import { ref, shallowRef } from 'vue'
import type { RequestOutcome } from '../api/request-outcome'
import type { AgentRuntime } from '../runtime/agent-runtime'

/** The picker's state for the assistant store; `runtime` is read on each call because it is built later. */
export function useModelChoice(runtime: () => AgentRuntime | null) {
  /** What the provider lists (the configured model first), or only the configured model. */
  const models = shallowRef<string[]>([])
  /** The model this conversation's requests name; null until the list arrives or a model is picked. */
  const chosenModel = ref<string | null>(null)
  /** The last chat request's outcome; null before the first one. */
  const lastRequest = shallowRef<RequestOutcome | null>(null)

  let following: (() => void) | null = null

  async function loadModels(): Promise<void> {
    const agent = runtime()
    if (!agent) return
    // The conversation's own model (restored from its log, or continued from History) moves the picker too.
    following ??= agent.bus.on('llm:modelChosen', ({ model }) => {
      chosenModel.value = model ?? agent.model
    })
    try {
      const [list] = await Promise.all([agent.listModels(), agent.conversation.restoring])
      models.value = list.models
      // A logged model the provider no longer offers (or the author no longer configures) gives way to the default.
      if (agent.model && list.models.length > 0 && !list.models.includes(agent.model)) agent.chooseModel(null)
      chosenModel.value = agent.model ?? list.current
    } catch {
      // No listing (an older dev server, or it failed): the header shows the configured model without a picker.
      models.value = []
    }
  }

  /** Picks the model for the next requests of this conversation; only one of the offered models. */
  function chooseModel(model: string): boolean {
    const agent = runtime()
    if (!agent || !models.value.includes(model)) return false
    agent.chooseModel(model)
    chosenModel.value = model
    return true
  }

  /** A new conversation goes back to the configured model (the runtime logs the pick with the conversation). */
  function resetModel(): void {
    chosenModel.value = runtime()?.model ?? null
  }

  function recordRequest(outcome: RequestOutcome): void {
    lastRequest.value = outcome
  }

  return { models, chosenModel, lastRequest, loadModels, chooseModel, resetModel, recordRequest }
}
