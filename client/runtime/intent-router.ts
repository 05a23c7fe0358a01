// Turns what the author typed into an intent: slash commands, then keyword patterns, then the model.
import { isRecord } from '../is-record'
import { builtinSkills } from '../skills'
import { cleanPhrase, normalizeInput } from './intent-params'
import { ARTICLE_LENGTHS, INTENTS } from './intent-types'
import type { ArticleLength, Intent, IntentParams, IntentParse, RouteContext } from './intent-types'
import { LruCache } from './lru-cache'
import type { Skill } from './types'
import { Vocabulary } from './vocabulary'

export type { ArticleLength, Intent, IntentParams, IntentParse, IntentSource, RouteContext } from './intent-types'
export { INTENTS } from './intent-types'

/** Below this the runtime asks the author what they meant instead of guessing. */
export const CONFIDENCE_FLOOR = 0.6

/** What an unrecognized text, or a model answer that cannot be trusted, is worth. */
export const LOW_CONFIDENCE = 0.3

export const INTENT_CACHE_SIZE = 50
export const INTENT_CACHE_TTL_MS = 10 * 60_000

/**
 * Asks a model what `text` means. Whatever it returns is validated; the expected shape is
 * `{ intent, confidence, params }`, as an object or as JSON text.
 */
export type ClassifyFunction = (text: string, context: RouteContext) => unknown

export interface IntentRouterOptions {
  /** The skills whose commands and patterns the router understands (default: the built-in ones). */
  skills?: readonly Skill[]
  classify?: ClassifyFunction
  cacheSize?: number
  cacheTtlMs?: number
  now?: () => number
}

export function shouldAskUser(parse: IntentParse): boolean {
  return parse.confidence < CONFIDENCE_FLOOR
}

/** The question to ask when a request lacks what its skill cannot guess (a topic, a query), else undefined. */
export function missingDetail(parse: IntentParse): string | undefined {
  const { topic, query } = parse.params
  if (parse.intent === 'write_article' && topic === undefined) return 'What should the post be about? For example: /write a guide to ETags'
  if (parse.intent === 'research' && query === undefined) return 'What should I look for in your posts? For example: /research caching'
  if (parse.intent === 'answer_question' && query === undefined) return 'What would you like to know? For example: /ask which posts mention ETags'
  return undefined
}

export class IntentRouter {
  private readonly classify: ClassifyFunction | undefined
  private readonly cache: LruCache<string, IntentParse>
  private words: Vocabulary

  constructor(options: IntentRouterOptions = {}) {
    this.classify = options.classify
    this.words = new Vocabulary(options.skills ?? builtinSkills)
    this.cache = new LruCache({
      maxEntries: options.cacheSize ?? INTENT_CACHE_SIZE,
      ttlMs: options.cacheTtlMs ?? INTENT_CACHE_TTL_MS,
      ...(options.now ? { now: options.now } : {}),
    })
  }

  /** What the router understands: commands, patterns, intents, help and the slash menu. */
  get vocabulary(): Vocabulary {
    return this.words
  }

  /** Understands another set of skills from now on (a skill registered later). */
  setSkills(skills: readonly Skill[]): void {
    this.words = new Vocabulary(skills)
    this.cache.clear()
  }

  /** Commands and patterns only: instant, no model. Undefined when neither recognizes the text. */
  parseLocally(text: string, context: RouteContext = {}): IntentParse | undefined {
    const normalized = normalizeInput(text)
    const command = this.words.matchCommand(normalized, context)
    if (command) return { ...command, source: 'command' }
    const pattern = this.words.matchPattern(normalized, context, cleanPhrase(normalized))
    if (pattern) return { ...pattern, source: 'pattern' }
    return undefined
  }

  /** Never throws: a failing or confused model yields a low-confidence parse. */
  async route(text: string, context: RouteContext = {}): Promise<IntentParse> {
    const local = this.parseLocally(text, context)
    if (local) return local
    const normalized = normalizeInput(text)
    const fallback: IntentParse = {
      intent: 'answer_question',
      confidence: normalized === '' ? 0 : LOW_CONFIDENCE,
      params: normalized === '' ? {} : { query: normalized },
      source: 'fallback',
    }
    if (normalized === '' || this.classify === undefined) return fallback

    const key = cacheKey(normalized, context)
    const cached = this.cache.get(key)
    if (cached) return { ...cached, params: { ...cached.params }, source: 'cache' }

    let answer: unknown
    try {
      answer = await this.classify(normalized, context)
    } catch {
      // A model outage must not block the author; the caller will ask what they meant.
      return fallback
    }
    const parse = validateModelAnswer(answer, normalized, this.words.intents)
    if (parse === undefined) return fallback
    this.cache.set(key, parse)
    return { ...parse, params: { ...parse.params } }
  }

  clearCache(): void {
    this.cache.clear()
  }
}

/**
 * The page matters too: the model may have resolved "this article" to the open file. Case is
 * folded because "Summarize This" and "summarize this" mean the same.
 */
function cacheKey(normalized: string, context: RouteContext): string {
  const selection = context.selectedText ? 'selection' : 'no-selection'
  return JSON.stringify([normalized.toLowerCase(), selection, context.currentFile ?? ''])
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text)
  } catch {
    return undefined
  }
}

const STRING_PARAMS = ['topic', 'style', 'pageHint', 'instruction', 'query'] as const
const MAX_PARAM_LENGTH = 2000

/** A model's answer as a parse, or undefined when it names no known intent. */
export function validateModelAnswer(answer: unknown, text: string, intents: readonly Intent[] = INTENTS): IntentParse | undefined {
  const value = typeof answer === 'string' ? parseJson(answer) : answer
  if (!isRecord(value)) return undefined
  const intent = value.intent
  if (typeof intent !== 'string' || intent === 'agent' || !intents.includes(intent)) return undefined
  const raw = value.confidence
  const confidence = typeof raw === 'number' && Number.isFinite(raw) && raw >= 0 && raw <= 1 ? raw : LOW_CONFIDENCE
  const params = validateParams(value.params)
  if (intent === 'answer_question' && params.query === undefined) params.query = text
  return { intent: intent as Intent, confidence, params, source: 'model' }
}

function validateParams(raw: unknown): IntentParams {
  const params: IntentParams = {}
  if (!isRecord(raw)) return params
  for (const key of STRING_PARAMS) {
    const value = Object.hasOwn(raw, key) ? raw[key] : undefined
    if (typeof value === 'string' && value.trim() !== '' && value.length <= MAX_PARAM_LENGTH) params[key] = value.trim()
  }
  const path = raw.path
  if (typeof path === 'string' && /^[^\s\\]+\.md$/u.test(path) && !path.split('/').includes('..')) {
    params.path = path.replace(/^\.?\//u, '')
  }
  if (typeof raw.length === 'string' && ARTICLE_LENGTHS.includes(raw.length as ArticleLength)) {
    params.length = raw.length as ArticleLength
  }
  const count = raw.wordCount
  if (typeof count === 'number' && Number.isInteger(count) && count > 0 && count <= 50_000) params.wordCount = count
  return params
}
