import type { LlmStatusResponse } from '../../plugin/protocol'
import type { MetaBlogApi } from '../api/metablog-api'
import { NO_MODEL, NO_MODEL_NAME } from './messages'
import type { ToolSupport } from './model-output'

/** A status that names no model cannot run a model skill: it counts as unconfigured, saying why. */
export function usableStatus(status: LlmStatusResponse): LlmStatusResponse {
  if (!status.configured || status.model) return status
  return { ...status, configured: false, instructions: status.instructions ?? NO_MODEL_NAME }
}

/** The gateway's model status, as the runtime last loaded it; also what is known of each model's tool support. */
export class ModelStatus implements ToolSupport {
  current: LlmStatusResponse | null = null
  /** The model picked in the panel for this conversation; null uses the configured one. */
  chosen: string | null = null

  /** Models that refused the `tools` parameter in this page: the agent talks to them in text actions at once. */
  private readonly refusedTools = new Set<string>()

  constructor(
    private readonly api: MetaBlogApi,
    /** Hears every change of the conversation's model. */
    private readonly onChosen: (model: string | null) => void = () => undefined,
  ) {}

  /** Sets the conversation's model (null: the configured one) and says so. */
  choose(model: string | null): void {
    this.chosen = model === this.current?.model ? null : model
    this.onChosen(this.chosen)
  }

  /** Whether model skills can run: configured, with a model named. */
  get ready(): boolean {
    return this.current?.configured === true
  }

  /** Whether the agent's tool loop can run: any usable model (one without tools gets the text action protocol). */
  get toolsUsable(): boolean {
    return this.ready
  }

  lacksTools(model: string): boolean {
    if (this.refusedTools.has(model)) return true
    return model === this.current?.model && this.current.capabilities?.tools === false
  }

  markNoTools(model: string): void {
    this.refusedTools.add(model)
    // The header's note follows at once: the store reads the status again after each request.
    const current = this.current
    if (current?.configured && current.model === model && current.capabilities) this.current = { ...current, capabilities: { ...current.capabilities, tools: false } }
  }

  /** The model requests name: the picked one, else the configured one. */
  get model(): string | null {
    return this.chosen ?? this.current?.model ?? null
  }

  /** What the setup card says. */
  get setupText(): string {
    return this.current?.instructions ?? NO_MODEL
  }

  async load(): Promise<LlmStatusResponse> {
    this.current = usableStatus(await this.api.llmStatus())
    return this.current
  }
}
