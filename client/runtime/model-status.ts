import type { LlmStatusResponse } from '../../plugin/protocol'
import type { MetaBlogApi } from '../api/metablog-api'
import { NO_MODEL, NO_MODEL_NAME } from './messages'

/** A status that names no model cannot run a model skill: it counts as unconfigured, saying why. */
export function usableStatus(status: LlmStatusResponse): LlmStatusResponse {
  if (!status.configured || status.model) return status
  return { ...status, configured: false, instructions: status.instructions ?? NO_MODEL_NAME }
}

/** The gateway's model status, as the runtime last loaded it. */
export class ModelStatus {
  current: LlmStatusResponse | null = null
  /** The model picked in the panel for this conversation; null uses the configured one. */
  chosen: string | null = null

  constructor(private readonly api: MetaBlogApi) {}

  /** Whether model skills can run: configured, with a model named. */
  get ready(): boolean {
    return this.current?.configured === true
  }

  /** Whether the agent's tool loop can run: a model that cannot call tools gets the recipes instead. */
  get toolsUsable(): boolean {
    return this.ready && this.current?.capabilities?.tools !== false
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
