import type { ModelPort, ModelRequest, SkillContext } from '../runtime/types'
import { user } from './prompts'
import { SkillError } from '../api/errors'
import { NO_MODEL } from '../runtime/messages'
import { cleanPageText, foldedReasoning, showingReasoning } from '../runtime/model-output'

/** The task's model, its reasoning shown folded in the reply; a step that cannot work without one fails with a setup message instead of a crash. */
export function requireModel(context: SkillContext): ModelPort {
  if (context.model) return showingReasoning(context.model, (reasoning) => context.say(foldedReasoning(reasoning)))
  throw new SkillError('ERR_LLM_UNCONFIGURED', NO_MODEL)
}

export interface StreamReplyOptions {
  /** Markdown shown above the model's text (a title with a link); not part of the returned text. */
  lead?: string
  /** Markdown shown below the model's text (the sources it drew on); not part of the returned text. */
  tail?: string
  /** Text streamed before an interruption; defaults to the step's `resumedText`. */
  resumed?: string
  /** Records the text so far for the checkpoint; defaults to `context.streamed`. */
  save?: (text: string) => void
}

/**
 * Streams a model answer into a fresh reply message. After an interruption it shows what was
 * already streamed and asks the model to continue from there, so the finished part is not paid twice.
 */
export async function streamReply(context: SkillContext, request: ModelRequest, options: StreamReplyOptions = {}): Promise<string> {
  const model = requireModel(context)
  const resumed = options.resumed ?? context.resumedText
  const save = options.save ?? ((text: string) => context.streamed(text))
  const messages = resumed
    ? [...request.messages, user(`You already wrote the beginning below. Continue exactly where it stops; do not repeat it.\n\n${resumed}`)]
    : request.messages
  const reply = context.replyStream()
  let text = resumed
  try {
    if (options.lead) reply.append(options.lead)
    if (resumed) reply.append(resumed)
    await model.complete({ ...request, messages }, {
      onText: (delta) => {
        text += delta
        reply.append(delta)
        save(text)
      },
    })
    if (options.tail) reply.append(options.tail)
  } finally {
    reply.done()
  }
  // A reply may end up on a page (a summary as its description): no preamble or sign-off.
  return cleanPageText(text)
}
