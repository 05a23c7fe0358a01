// Parameter extraction for the keyword patterns: page targets, tone, length and topics, English and Chinese.
import type { ArticleLength, IntentParams, RouteContext } from './intent-types'

/** Folds full-width forms (／, ？, ，) to ASCII and collapses whitespace, so one regex fits both. */
export function normalizeInput(text: string): string {
  return text.normalize('NFKC').replace(/\s+/g, ' ').trim()
}

/** Strips quotes, trailing punctuation and filler so "“Rust traits”, please." becomes "Rust traits". */
export function cleanPhrase(text: string): string {
  let result = text.trim()
  for (;;) {
    const before = result
    result = result
      .replace(/[\s.!?,;:。！？，；：、…]+$/u, '')
      .replace(/\s+(?:please|for me|for my blog|thanks?)$/i, '')
      .replace(/(?:吧|呢|吗|啊|一下)$/u, '')
      .replace(/^["'“”‘’「」『』`]+|["'“”‘’「」『』`]+$/gu, '')
      .trim()
    if (result === before) return result
  }
}

// --- page targets -----------------------------------------------------------------

const PATH_PATTERN = /(?:\.\/|\/)?((?:[\p{L}\p{N}_-]+\/)*[\p{L}\p{N}_.-]+\.md)(?![\p{L}\p{N}_])/u

/** An explicit page path in the text, without a leading `./` or `/` (the API wants site-relative paths). */
export function findPath(text: string): string | undefined {
  return PATH_PATTERN.exec(text)?.[1]
}

const THIS_PAGE_EN = /^(?:(?:this|the current|current|my current)\s*(?:blog\s+)?(?:post|article|page|draft|note|one)?|it|here)$/i
const THIS_PAGE_ZH = /^(?:这|这篇|这个|本|当前|本篇|这一)(?:篇|个)?(?:文章|博客|博文|页面|帖子|笔记)?(?:的内容)?$/u
const HINT_EN = /^(?:the|my|that)?\s*(?:blog\s+)?(?:post|article|page|draft|note|piece)\s+(?:about|on|called|titled|named|regarding)\s+(.+)$/i
const HINT_ZH = /^(?:那篇|一下|下)?(?:关于|有关|名为|叫做?|标题是|题为)?(.+?)的?(?:那篇)?(?:文章|博客|博文|帖子|笔记)$/u
const TITLE_ZH = /《([^》]+)》/u

export type TargetKind = 'path' | 'current' | 'hint' | 'none'

export interface Target {
  kind: TargetKind
  params: Pick<IntentParams, 'path' | 'pageHint'>
}

/**
 * Works out which page a phrase like "posts/x.md", "this article", "the post about X", 《X》 or
 * "这篇文章" means. `rest` is what follows the verb.
 */
export function resolveTarget(rest: string, context: RouteContext): Target {
  const path = findPath(rest)
  if (path !== undefined) return { kind: 'path', params: { path } }
  const title = TITLE_ZH.exec(rest)?.[1]?.trim()
  if (title) return { kind: 'hint', params: { pageHint: title } }

  const phrase = cleanPhrase(rest.replace(/^(?:of|for)\s+/i, ''))
  if (phrase === '' || THIS_PAGE_EN.test(phrase) || THIS_PAGE_ZH.test(phrase)) {
    return context.currentFile ? { kind: 'current', params: { path: context.currentFile } } : { kind: 'none', params: {} }
  }
  const hint = HINT_EN.exec(phrase)?.[1] ?? HINT_ZH.exec(phrase)?.[1] ?? phrase
  const pageHint = cleanPhrase(hint)
  return pageHint === '' ? { kind: 'none', params: {} } : { kind: 'hint', params: { pageHint } }
}

// --- tone ---------------------------------------------------------------------------

const STYLE_WORDS_EN: Record<string, string> = {
  casual: 'casual',
  informal: 'casual',
  relaxed: 'casual',
  formal: 'formal',
  humorous: 'humorous',
  funny: 'humorous',
  witty: 'humorous',
  technical: 'technical',
  academic: 'academic',
  friendly: 'friendly',
  conversational: 'conversational',
  playful: 'playful',
  professional: 'professional',
  persuasive: 'persuasive',
  serious: 'serious',
  poetic: 'poetic',
}

const STYLE_WORDS_ZH: Record<string, string> = {
  正式: 'formal',
  轻松: 'casual',
  随意: 'casual',
  口语化: 'conversational',
  幽默: 'humorous',
  风趣: 'humorous',
  技术: 'technical',
  专业: 'professional',
  学术: 'academic',
  严肃: 'serious',
  活泼: 'playful',
  通俗: 'plain',
}

const STYLE_ZH_ALTERNATION = Object.keys(STYLE_WORDS_ZH).join('|')

/** A known tone word in English or Chinese, as its English name. */
export function styleFromWord(word: string): string | undefined {
  const key = word.toLowerCase()
  if (Object.hasOwn(STYLE_WORDS_EN, key)) return STYLE_WORDS_EN[key]
  if (Object.hasOwn(STYLE_WORDS_ZH, word)) return STYLE_WORDS_ZH[word]
  return undefined
}

// --- length ---------------------------------------------------------------------------

const LENGTH_WORDS: Record<string, ArticleLength> = {
  short: 'short',
  brief: 'short',
  quick: 'short',
  medium: 'medium',
  'medium-length': 'medium',
  'mid-length': 'medium',
  long: 'long',
  lengthy: 'long',
  detailed: 'long',
  'in-depth': 'long',
  comprehensive: 'long',
  简短: 'short',
  短: 'short',
  中等: 'medium',
  中等长度: 'medium',
  中篇: 'medium',
  长: 'long',
  长篇: 'long',
  详细: 'long',
  深入: 'long',
}

export function lengthFromWord(word: string): ArticleLength | undefined {
  const key = word.toLowerCase()
  return Object.hasOwn(LENGTH_WORDS, key) ? LENGTH_WORDS[key] : undefined
}

/** Size class for a word count: up to 600 is a short post, up to 1500 a medium one. */
export function lengthFromWordCount(count: number): ArticleLength {
  if (count <= 600) return 'short'
  if (count <= 1500) return 'medium'
  return 'long'
}

// --- modifiers anywhere in a writing request --------------------------------------------

export interface Modifiers {
  style?: string
  length?: ArticleLength
  wordCount?: number
  /** "in notes/", "放在 notes": the folder the post goes in, as typed. */
  folder?: string
  /** The text with the recognized phrases cut out. */
  rest: string
}

// Each of these is unambiguous wherever it appears, unlike a bare "long" or "technical" inside a topic.
const TONE_EN = /[,\s]*\b(?:in|with|using)\s+(?:a|an)\s+([a-z]+(?:[- ][a-z]+)?)\s+(?:tone|style|voice|register|manner)\b/i
const TONE_ZH = new RegExp(`[,\\s]*(?:用|以|采用)?\\s*(${STYLE_ZH_ALTERNATION})(?:一点|一些)?的?(?:语气|风格|口吻|文风|笔调)`, 'u')
const COUNT_EN = /[,\s]*\b(?:(?:in|of|with)\s+)?(?:about|around|roughly|approximately|~)?\s*(\d{2,5})[\s-]*words?(?:\s+long)?\b/i
const COUNT_ZH = /(?:大约|大概|约)?\s*(\d{2,5})\s*字(?:左右)?的?/u
const KEEP_IT_EN = /[,\s]*\b(?:keep|make)\s+it\s+(short|brief|long|detailed)\b/i
// A folder is named unmistakably: with a slash ("in notes/") or the word folder; "in Rust" is a topic.
const FOLDER_NAME = '[A-Za-z0-9_-]+(?:/[A-Za-z0-9_-]+)*'
const FOLDER_SLASH_EN = new RegExp(String.raw`[,\s]*\b(?:in|into|under|to)\s+(?:the\s+|my\s+)?[\x60"']?(${FOLDER_NAME})/[\x60"']?(?=[\s,.;:!?]|$)`, 'i')
const FOLDER_WORD_EN = new RegExp(String.raw`[,\s]*\b(?:in|into|under)\s+(?:the\s+|my\s+)?[\x60"']?(${FOLDER_NAME})/?[\x60"']?\s+(?:folder|directory|dir)\b`, 'i')
const FOLDER_ZH = new RegExp(String.raw`[,，\s]*(?:(?:放在|放到|放进|保存在|保存到|存到|存放在|写到|写进)\s*[\x60"'“‘「]?(${FOLDER_NAME})/?[\x60"'”’」]?\s*(?:目录|文件夹)?|在\s*[\x60"'“‘「]?(${FOLDER_NAME})/?[\x60"'”’」]?\s*(?:目录|文件夹))(?:下面|下|里面|里|中)?`, 'u')

export function extractModifiers(text: string): Modifiers {
  let rest = text
  const modifiers: Omit<Modifiers, 'rest'> = {}
  const cut = (pattern: RegExp): string | undefined => {
    const match = pattern.exec(rest)
    if (!match) return undefined
    rest = `${rest.slice(0, match.index)} ${rest.slice(match.index + match[0].length)}`
    return match[1]
  }
  // The Chinese pattern names its folder in one of two groups.
  const cutFolderZh = (): string | undefined => {
    const match = FOLDER_ZH.exec(rest)
    if (!match) return undefined
    rest = `${rest.slice(0, match.index)} ${rest.slice(match.index + match[0].length)}`
    return match[1] ?? match[2]
  }

  const tone = cut(TONE_EN) ?? cut(TONE_ZH)
  if (tone !== undefined) modifiers.style = styleFromWord(tone) ?? tone.toLowerCase()
  const count = cut(COUNT_EN) ?? cut(COUNT_ZH)
  if (count !== undefined) {
    modifiers.wordCount = Number(count)
    modifiers.length = lengthFromWordCount(modifiers.wordCount)
  }
  const keep = cut(KEEP_IT_EN)
  if (keep !== undefined) modifiers.length = lengthFromWord(keep)
  const folder = cut(FOLDER_SLASH_EN) ?? cut(FOLDER_WORD_EN) ?? cutFolderZh()
  if (folder !== undefined) modifiers.folder = folder
  return { ...modifiers, rest: normalizeInput(rest) }
}

const ADJECTIVES_ZH = [...Object.keys(STYLE_WORDS_ZH), ...Object.keys(LENGTH_WORDS).filter((word) => /\p{Script=Han}/u.test(word))]
  .sort((a, b) => b.length - a.length)
  .join('|')
// A Chinese adjective counts only when 的 follows it or it is the whole phrase: "长沙旅游" is a topic, not "long".
const LEADING_ADJECTIVE_ZH = new RegExp(`^[\\s、,]*(?:(${ADJECTIVES_ZH})的|(${ADJECTIVES_ZH})$)`, 'u')

/**
 * Records tone and size adjectives from the words between the verb and the noun ("a short, casual
 * post", "正式的关于X的"), where they cannot be part of the topic, and returns what is left.
 */
export function takeAdjectives(phrase: string, into: Omit<Modifiers, 'rest'>): string {
  const record = (word: string): void => {
    into.style ??= styleFromWord(word)
    into.length ??= lengthFromWord(word)
  }
  if (!/\p{Script=Han}/u.test(phrase)) {
    for (const word of phrase.match(/[a-z]+(?:-[a-z]+)*/gi) ?? []) record(word)
    return ''
  }
  let rest = phrase
  for (let match = LEADING_ADJECTIVE_ZH.exec(rest); match; match = LEADING_ADJECTIVE_ZH.exec(rest)) {
    record(match[1] ?? match[2] ?? '')
    rest = rest.slice(match[0].length)
  }
  return rest
}
