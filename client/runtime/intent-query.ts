// The words to search for in a question: the command, the politeness and the question's frame
// ("what have I written about", "我写过哪些关于…的文章") cut, in English and Chinese, the same way
// whether the question came as /research, as a sentence the patterns recognized, or from the model.
import { cleanPhrase, normalizeInput } from './intent-params'

const SLASH_COMMAND = /^\/[a-z]+(?:\s+|$)/i

// Each is cut from the start, again and again, until none applies: "please find posts about X" → "X".
const LEADING_EN = [
  /^(?:please|can you|could you|would you|help me|i want you to|i'd like you to|let's|so|ok(?:ay)?|hey)[\s,]+/i,
  /^(?:what|which\s+\w+)\s+(?:have|did)\s+i\s+(?:ever\s+)?(?:written|write|blogged|posted|said|noted)\s+(?:about|on|regarding)\s+/i,
  /^(?:have|did)\s+i\s+(?:ever\s+)?(?:written|write|blogged|posted)\s+(?:anything\s+|something\s+)?(?:about|on|regarding)\s+/i,
  /^(?:find|search(?:\s+for)?|look\s+up|list|show(?:\s+me)?)\s+(?:all\s+)?(?:of\s+)?(?:my\s+|the\s+)?(?:blog\s+)?(?:posts|articles|notes|pages|writing)\s+(?:about|on|mentioning|related\s+to|regarding|that\s+mention)\s+/i,
  /^search\s+(?:my\s+blog|the\s+blog|my\s+posts|the\s+site)\s+for\s+/i,
  /^(?:which|what)\s+(?:of\s+my\s+)?(?:posts|articles|notes|pages)\s+(?:mention|cover|discuss|talk\s+about|are\s+about|explain|say\s+about)\s+/i,
  /^what\s+do(?:es)?\s+(?:i|my\s+(?:blog|posts))\s+(?:know|say|have)\s+about\s+/i,
  /^(?:research|search(?:\s+for)?|find|look\s+up|tell\s+me\s+about|explain)\s+/i,
  /^(?:what|who)(?:'s|\s+is|\s+are|\s+was|\s+were)\s+(?:an?\s+|the\s+)?/i,
]
// "how do ETags work?" asks about ETags.
const HOW_WORKS_EN = /^how\s+(?:do|does|did|can|could|should)\s+(.+?)\s+works?$/i
// "… in my posts?", "… on my blog": where to look, not what.
const TRAILING_EN = /\s+(?:in|on|from|across)\s+(?:my|the|this)\s+(?:blog|posts|articles|notes|site|pages)$/i

const LEADING_ZH = [
  /^(?:请|帮我|给我|麻烦你?|你)+/u,
  /^我(?:之前|以前|都|曾经|有没有)?写过(?:哪些|什么|几篇|多少)?篇?(?:关于|有关)?/u,
  /^(?:搜索|查找|搜一下|找一下|找找|查一下|研究|调研|查查)(?:一下)?(?:我的|博客里|博客中|文章里)?(?:关于|有关)?/u,
  /^(?:关于|有关)/u,
  /^什么是/u,
]
const TRAILING_ZH = /(?:相关)?的?(?:文章|博客|博文|内容|东西|帖子)?(?:有哪些|有什么|是什么|怎么用|如何工作|是怎么工作的)?(?:没有|吗|呢)?$/u

function stripLeading(text: string, patterns: readonly RegExp[]): string {
  let result = text
  for (let changed = true; changed; ) {
    changed = false
    for (const pattern of patterns) {
      const next = result.replace(pattern, '')
      if (next !== result && next.trim() !== '') {
        result = next.trim()
        changed = true
      }
    }
  }
  return result
}

/**
 * The search terms of a question: "/research what have I written about backpressure?" and
 * "what have I written about backpressure?" both give "backpressure". Idempotent; a question that is
 * all frame ("what have I written?") keeps its words rather than becoming empty.
 */
export function retrievalQuery(text: string): string {
  const typed = cleanPhrase(normalizeInput(text).replace(SLASH_COMMAND, ''))
  let query = stripLeading(typed, LEADING_EN).replace(TRAILING_EN, '').replace(HOW_WORKS_EN, '$1')
  query = stripLeading(query, LEADING_ZH)
  const withoutTail = query.replace(TRAILING_ZH, '')
  if (withoutTail.trim() !== '') query = withoutTail
  return cleanPhrase(query) || typed
}

/** The question as the author asked it, without a slash command in front: what the model answers. */
export function questionOf(text: string): string {
  return normalizeInput(text).replace(SLASH_COMMAND, '').trim()
}
