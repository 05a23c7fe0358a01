// Reasoning models (DeepSeek-R1, Qwen3, QwQ served by Ollama or LM Studio) think inside <think> tags in the content.

const OPEN_TAGS = ['<think>', '<thinking>']
const CLOSE_TAGS = ['</think>', '</thinking>']

export interface SplitText {
  text: string
  reasoning: string
}

function findTag(haystack: string, tags: readonly string[]): { at: number; length: number } | null {
  let best: { at: number; length: number } | null = null
  const lower = haystack.toLowerCase()
  for (const tag of tags) {
    const at = lower.indexOf(tag)
    if (at !== -1 && (!best || at < best.at)) best = { at, length: tag.length }
  }
  return best
}

/** How many trailing characters could be the start of a tag split across chunks. */
function partialTagLength(text: string, tags: readonly string[]): number {
  const lower = text.toLowerCase()
  for (let length = Math.min(lower.length, Math.max(...tags.map((tag) => tag.length)) - 1); length > 0; length--) {
    const tail = lower.slice(-length)
    if (tags.some((tag) => tag.startsWith(tail))) return length
  }
  return 0
}

/**
 * Splits streamed content into text and reasoning as chunks arrive: tags may be split across chunks,
 * and a block still open when the stream ends is reasoning (a model cut off mid-thought wrote no answer).
 */
export function createThinkFilter() {
  let inside = false
  let pending = ''
  let emittedText = false
  function drain(final: boolean): SplitText {
    const out: SplitText = { text: '', reasoning: '' }
    for (;;) {
      const tag = findTag(pending, inside ? CLOSE_TAGS : OPEN_TAGS)
      if (tag) {
        if (inside) out.reasoning += pending.slice(0, tag.at)
        else out.text += pending.slice(0, tag.at)
        pending = pending.slice(tag.at + tag.length)
        inside = !inside
        continue
      }
      const keep = final ? 0 : partialTagLength(pending, inside ? CLOSE_TAGS : OPEN_TAGS)
      const ready = pending.slice(0, pending.length - keep)
      pending = pending.slice(pending.length - keep)
      if (inside) out.reasoning += ready
      else out.text += ready
      break
    }
    // The blank lines between a closed think block and the answer are not part of the answer.
    if (!emittedText) out.text = out.text.replace(/^\s+/, '')
    if (out.text) emittedText = true
    return out
  }
  return {
    push: (delta: string): SplitText => {
      pending += delta
      return drain(false)
    },
    end: (): SplitText => drain(true),
  }
}

/**
 * The whole answer split once more: a lone `</think>` with no opening tag (the chat template put
 * `<think>` in the prompt, as DeepSeek-R1 distills on Ollama do) closes reasoning that began the answer.
 */
export function splitReasoning(content: string): SplitText {
  const filter = createThinkFilter()
  const first = filter.push(content)
  const last = filter.end()
  let text = first.text + last.text
  let reasoning = first.reasoning + last.reasoning
  const orphan = findTag(text, CLOSE_TAGS)
  if (orphan) {
    reasoning = `${text.slice(0, orphan.at)}${reasoning}`
    text = text.slice(orphan.at + orphan.length).replace(/^\s+/, '')
  }
  return { text, reasoning }
}
