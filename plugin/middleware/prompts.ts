import type { PromptsResponse } from '../protocol.js'
import type { PromptLibrary } from '../../server/prompts/prompt-library.js'
import { createRoute } from './api-handler.js'

/** GET /prompts: the custom slash commands from the prompts folder, and what is wrong with any bad file. */
export function promptsMiddleware(library: PromptLibrary) {
  return createRoute(/^\/prompts$/, {
    async GET() {
      return { body: (await library.load()) satisfies PromptsResponse }
    },
  })
}
