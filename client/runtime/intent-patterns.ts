// Keyword rules in English and Chinese for the built-in skills, which register them (with their
// order: anchored, specific rules first); a miss falls to the agent or the model.
import type { PatternRule } from './define-skill'
import { cleanPhrase, extractModifiers, findPath, resolveTarget, takeAdjectives } from './intent-params'
import type { Target } from './intent-params'
import { retrievalQuery } from './intent-query'
import type { IntentParams } from './intent-types'

/** `text` has its trailing punctuation and particles cut; `typed` is the input as typed (normalized). */
type Rule = PatternRule

const POLITE_EN = String.raw`^(?:(?:please|can you|could you|would you|help me|i want you to|i'd like you to|let's)\s+)*`
const POLITE_ZH = String.raw`^(?:请|帮我|给我|麻烦你?|能不能|可以|你)*\s*`

function firstMatch(patterns: readonly RegExp[], text: string): RegExpExecArray | undefined {
  for (const pattern of patterns) {
    const match = pattern.exec(text)
    if (match) return match
  }
  return undefined
}

// An explicit path is certain; "this article" or a title still needs resolving; no page at all is vaguer.
function targetConfidence(target: Target): number {
  if (target.kind === 'path') return 0.95
  return target.kind === 'none' ? 0.8 : 0.9
}

// --- delete_article -------------------------------------------------------------------------

// "Delete the post" means the whole page only when the noun is followed by nothing, a path, a quoted
// title (its closing quote may have been trimmed) or a connector like "about"/"名为". "The post's intro",
// "the page title", "文章的最后一段" and "文章里的广告" name a part of the page: the edit rule gets those.
const WHOLE_PAGE_END = String.raw`(?=\s*:?\s*(?:\S+\.md|(?!['’]s\b)[《"“‘'「『][^》"”’'」』]+[》"”’'」』]?)?$)`
const PAGE_NOUN_ZH = '(?:这篇|那篇|这个)?(?:文章|博客|博文|帖子|页面)'

const DELETE = [
  new RegExp(String.raw`${POLITE_EN}(?:delete|remove|trash)\s+(?:(?:the|my|this|that)\s+)?(?:blog\s+)?(?:post|article|page|draft)\b(?:\s+(?:about|on|called|titled|named)\s+|${WHOLE_PAGE_END})\s*(.*)$`, 'i'),
  new RegExp(String.raw`${POLITE_EN}(?:delete|remove|trash)\s+(\S+\.md)$`, 'i'),
  new RegExp(
    String.raw`${POLITE_ZH}(?:删除|删掉|移除)掉?\s*(?:${PAGE_NOUN_ZH}(?:\s*(?:关于|有关|叫做?|名为|标题是|题为)|${WHOLE_PAGE_END})|${WHOLE_PAGE_END}(?=\S)|(?!${PAGE_NOUN_ZH}[的里中])(?=.*(?:文章|博客|博文)$))\s*(.*)$`,
    'u',
  ),
]

export const deleteRule: Rule = (text, context) => {
  const match = firstMatch(DELETE, text)
  if (!match) return undefined
  const target = resolveTarget(match[1] ?? '', context)
  return { intent: 'delete_article', confidence: targetConfidence(target), params: target.params }
}

// --- research -------------------------------------------------------------------------------

const RESEARCH = [
  /^what\s+(?:have|did)\s+i\s+(?:ever\s+)?(?:written|write|blogged|posted|said)\s+(?:about|on|regarding)\s+(.+)$/i,
  /^(?:have|did)\s+i\s+(?:ever\s+)?(?:written|write|blogged|posted)\s+(?:anything\s+|something\s+)?(?:about|on|regarding)\s+(.+)$/i,
  new RegExp(String.raw`${POLITE_EN}(?:find|search|look up|list|show(?: me)?)\s+(?:all\s+)?(?:of\s+)?(?:my\s+|the\s+)?(?:blog\s+)?(?:posts|articles|notes|pages|writing)\s+(?:about|on|mentioning|related to|regarding|that mention)\s+(.+)$`, 'i'),
  new RegExp(String.raw`${POLITE_EN}search\s+(?:my\s+blog|the\s+blog|my\s+posts|the\s+site)\s+for\s+(.+)$`, 'i'),
  new RegExp(String.raw`${POLITE_EN}research\s+(.+)$`, 'i'),
  /^我(?:之前|以前|都|曾经)?写过(?:哪些|什么|几篇|多少)?篇?(?:关于|有关)?(.+?)(?:相关)?的?(?:文章|博客|博文|内容|东西)?(?:没有)?$/u,
  new RegExp(String.raw`${POLITE_ZH}(?:搜索|查找|搜一下|找一下|找找|查一下)(?:一下)?(?:我的|博客里|博客中)?(?:关于|有关)?(.+?)(?:相关)?的?(?:文章|博客|博文|内容)$`, 'u'),
  /^(?:研究|调研)(?:一下)?(.+)$/u,
]

export const researchRule: Rule = (text) => {
  const found = cleanPhrase(firstMatch(RESEARCH, text)?.[1] ?? '')
  // The slash command cuts the same words: both forms search for the same thing.
  const query = found === '' ? '' : retrievalQuery(found)
  return query === '' ? undefined : { intent: 'research', confidence: 0.9, params: { query } }
}

// --- summarize ------------------------------------------------------------------------------

const SUMMARIZE = [
  new RegExp(String.raw`${POLITE_EN}(?:summari[sz]e|sum up|recap|tl;?dr(?:\s+of)?|give me (?:a|the) (?:summary|tl;?dr|gist|recap) of|what(?:'s| is) the gist of)\b\s*(.*)$`, 'i'),
  /^what(?:'s| is)\s+(this|the current)\s+(?:article|post|page)\s+about$/i,
  new RegExp(String.raw`${POLITE_ZH}(?:总结|概括|归纳|提炼)(?:一下)?(.*?)的?(?:主要内容|内容|要点|大意)?$`, 'u'),
  /^(这篇文章|这篇)(?:讲了|说了|写了)什么$/u,
]

export const summarizeRule: Rule = (text, context) => {
  const match = firstMatch(SUMMARIZE, text)
  if (!match) return undefined
  const target = resolveTarget(match[1] ?? '', context)
  return { intent: 'summarize', confidence: targetConfidence(target), params: target.params }
}

// --- write_article ----------------------------------------------------------------------------

const WRITE_EN = new RegExp(
  String.raw`${POLITE_EN}(?:write|draft|compose|create|start|pen)\s+(?:me\s+|up\s+)?(?:(?:a|an|another|one|new|the)\s+)*(.*?)\b(?:blog\s*posts?|posts?|articles?|blogs?|essays?|pieces?|write-?ups?)\b\s*(?:(?:about|on|regarding|covering|explaining|discussing|titled|called|named)\s+|[:,-]\s*)?(.*)$`,
  'i',
)
const WRITE_ABOUT_EN = new RegExp(String.raw`${POLITE_EN}write\s+(?:something\s+)?(?:about|on)\s+(.+)$`, 'i')
const WRITE_ZH_VERB = String.raw`${POLITE_ZH}(?:帮我|给我)?(?:写|撰写|起草|创作)(?:一篇|一个|一份|篇|个)?`
const NOUN_ZH = '(短文|长文|文章|博客|博文|帖子|随笔)'
const WRITE_ZH = new RegExp(String.raw`${WRITE_ZH_VERB}(.*?)${NOUN_ZH}(.*)$`, 'u')
// "写一篇关于如何写博客的文章": the topic holds a noun of its own.
const WRITE_ZH_LAST_NOUN = new RegExp(String.raw`${WRITE_ZH_VERB}(.*)${NOUN_ZH}(.*)$`, 'u')
const TOPIC_BEFORE_ZH = /^(?:关于|有关|讲|介绍|谈谈|聊聊)?(.+?)(?:相关)?的?$/u
const TOPIC_AFTER_ZH = /^[,\s]*(?::|主题是|题目是|标题是|关于|介绍一下|介绍|讲讲|讲|谈谈|聊聊)[\s:]*(.+)$/u

export const writeRule: Rule = (text) => {
  const { rest, ...modifiers } = extractModifiers(text)
  let topic: string | undefined
  const english = WRITE_EN.exec(rest)
  const chinese = english ? undefined : WRITE_ZH.exec(rest)
  if (english) {
    takeAdjectives(english[1] ?? '', modifiers)
    topic = english[2]
  } else if (chinese) {
    // Words before the first noun start the topic, which may hold a noun itself: it runs to the last one.
    const startsTopic = takeAdjectives((chinese[1] ?? '').trim(), modifiers) !== ''
    const [, before = '', noun, after = ''] = startsTopic ? WRITE_ZH_LAST_NOUN.exec(rest)! : chinese
    const leftover = takeAdjectives(before.trim(), modifiers)
    if (noun === '短文') modifiers.length ??= 'short'
    if (noun === '长文') modifiers.length ??= 'long'
    topic = TOPIC_AFTER_ZH.exec(after)?.[1] ?? TOPIC_BEFORE_ZH.exec(leftover)?.[1]
  } else {
    topic = WRITE_ABOUT_EN.exec(rest)?.[1]
    if (topic === undefined) return undefined
  }
  const cleaned = cleanPhrase(topic ?? '')
  const params: IntentParams = cleaned === '' ? modifiers : { ...modifiers, topic: cleaned }
  return { intent: 'write_article', confidence: cleaned === '' ? 0.75 : 0.9, params }
}

// --- explain_code -------------------------------------------------------------------------------

const EXPLAIN = [
  new RegExp(String.raw`${POLITE_EN}(?:explain|walk me through|describe)\s+(?:what\s+)?(?:this|the|that|these)\s+(?:code|snippet|function|code block|block|lines?|regex|query|script|component)\b`, 'i'),
  /^(?:what|how)\s+does\s+(?:this|the|that)\s+(?:code|snippet|function|regex|script|line)\s+(?:do|work)\b/i,
  /(?:解释|讲解|说明)(?:一下)?(?:这段|这个|这些|这行|下面的)?(?:代码|函数|程序|正则|脚本)/u,
  /(?:这段|这个)(?:代码|函数|正则)是?(?:什么意思|做什么|干什么|在干嘛|怎么工作)/u,
]

export const explainRule: Rule = (text, context) => {
  if (!firstMatch(EXPLAIN, text)) return undefined
  const params = context.currentFile ? { path: context.currentFile } : {}
  return { intent: 'explain_code', confidence: context.selectedText ? 0.95 : 0.8, params }
}

// --- edit_content -----------------------------------------------------------------------------

const EDIT_VERBS_EN = [
  String.raw`make\s+(?:this|it|these|the\s+\w+)\b`,
  String.raw`(?:rewrite|re-?phrase|reword|translate|proofread|polish|shorten|expand|simplify|improve|tighten|condense|edit)\b`,
  String.raw`fix\s+(?:the\s+|any\s+|all\s+)?(?:grammar|typos?|spelling|wording|punctuation)\b`,
  String.raw`(?:turn\s+(?:this|it)\s+into|change\s+(?:this|it|the)|convert\s+(?:this|it)|clean\s+up|tone\s+down)\b`,
  // After the delete rule: "delete the second paragraph" names no page, so it edits one.
  String.raw`(?:remove|delete|cut|drop)\s+(?:the|this|that|these|all)\b`,
]
// 删除… comes after the delete rule too: "删除最后一段" names no page, so it edits one.
const EDIT_VERBS_ZH = '删除|删掉|删去|去掉|移除|改得|改成|改为|修改|润色|改写|重写|翻译|精简|缩短|扩写|扩充|校对|纠正|修正|优化|简化|调整'

const EDIT = [
  new RegExp(`${POLITE_EN}(?:${EDIT_VERBS_EN.join('|')})`, 'i'),
  new RegExp(String.raw`${POLITE_ZH}(?:把|将)?(?:这段|这句|这些|这篇|它|这里|这部分|文章)?(?:话|文字|内容|文章)?(?:${EDIT_VERBS_ZH})`, 'u'),
]

export const editRule: Rule = (text, context, typed) => {
  if (!firstMatch(EDIT, text)) return undefined
  // The instruction goes to the model as the author wrote it, particles and all.
  const instruction = typed.replace(/[\s.。!！]+$/u, '')
  const path = findPath(text) ?? (context.selectedText ? context.currentFile : undefined)
  if (context.selectedText) {
    return { intent: 'edit_content', confidence: 0.9, params: path === undefined ? { instruction } : { path, instruction } }
  }
  if (path !== undefined) return { intent: 'edit_content', confidence: 0.85, params: { path, instruction } }
  // Without a selection "make this shorter" most likely means the open page, but it is a guess.
  if (context.currentFile) return { intent: 'edit_content', confidence: 0.7, params: { path: context.currentFile, instruction } }
  return { intent: 'edit_content', confidence: 0.5, params: { instruction } }
}

// --- update_graph -------------------------------------------------------------------------------

const GRAPH = [
  /\b(?:update|refresh|rebuild|regenerate|recompute|sync)\s+(?:the\s+|my\s+)?(?:knowledge\s+|link\s+|wiki(?:-link)?\s+)?graph\b/i,
  /\bunlinked\s+mentions?\b/i,
  /\b(?:broken|missing|unresolved|dangling)\s+(?:wiki[- ]?)?links?\b/i,
  /(?:更新|刷新|重建|同步)(?:一下)?(?:知识)?图谱/u,
  /未链接的?(?:提及|引用)/u,
  /(?:断开|失效|未解析|缺失)的?(?:双向)?链接/u,
]

export const graphRule: Rule = (text) =>
  firstMatch(GRAPH, text) ? { intent: 'update_graph', confidence: 0.9, params: {} } : undefined

// --- help ---------------------------------------------------------------------------------------

const HELP = [
  /^(?:help|what can you do|what do you do|how do i use (?:this|you|metablog)|(?:list|show)(?: me)? (?:the |your )?commands|commands)$/i,
  /^(?:帮助|你能做什么|你会什么|你可以做什么|怎么用|如何使用|使用说明|有哪些命令|命令列表)$/u,
]

export const helpRule: Rule = (text) => (firstMatch(HELP, text) ? { intent: 'help', confidence: 0.9, params: {} } : undefined)
