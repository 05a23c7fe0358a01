// STUB — to be implemented (issue 3).
import type { ServerResponse } from 'node:http'
import type { IncomingMessage } from 'node:http'
import type { LlmStatusResponse } from '../../plugin/protocol.js'
import { MetaBlogError } from '../errors.js'

export interface LlmOptions {
  apiKey?: string
  baseURL?: string
  model?: string
}

export interface LlmGateway {
  status(): Promise<LlmStatusResponse>
  /** Proxies one chat-completions request (its parsed JSON body) and streams the answer back. */
  chatCompletions(request: IncomingMessage, body: unknown, response: ServerResponse): Promise<void>
  close(): void
}

export function createLlmGateway(_options: { llm?: LlmOptions; envDir: string; log: (message: string) => void }): LlmGateway {
  return {
    async status() {
      return { configured: false, provider: null, model: null, baseURLHost: null }
    },
    async chatCompletions() {
      throw new MetaBlogError('ERR_LLM_UNCONFIGURED', 'No model is configured.')
    },
    close() {},
  }
}
