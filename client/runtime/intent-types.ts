// The shapes an intent parse takes, shared by the router, its commands and its patterns.

export type Intent =
  | 'write_article'
  | 'edit_content'
  | 'summarize'
  | 'research'
  | 'update_graph'
  | 'explain_code'
  | 'answer_question'
  | 'delete_article'
  | 'help'
  /** Free text for the tool-calling agent: never chosen by the classifier, so not in INTENTS. */
  | 'agent'
  /** A skill's own intent, defined with the skill. */
  | (string & {})

export const INTENTS: readonly Intent[] = [
  'write_article',
  'edit_content',
  'summarize',
  'research',
  'update_graph',
  'explain_code',
  'answer_question',
  'delete_article',
  'help',
]

/** How the intent was decided; 'fallback' means nothing recognized the text and no model was sure. */
export type IntentSource = 'command' | 'pattern' | 'model' | 'cache' | 'fallback' | 'agent'

export type ArticleLength = 'short' | 'medium' | 'long'

export const ARTICLE_LENGTHS: readonly ArticleLength[] = ['short', 'medium', 'long']

export interface IntentParams {
  /** write_article: what to write about. */
  topic?: string
  /** write_article: a tone in English words ('casual', 'formal', …) or the author's own phrase. */
  style?: string
  /** write_article: a size class, derived from `wordCount` when only that was given. */
  length?: ArticleLength
  /** write_article: "500 words" or "800字" (a Chinese character counts as a word). */
  wordCount?: number
  /** The page to act on, relative to the source dir (an explicit `posts/x.md` or the current file). */
  path?: string
  /** A page named by title or subject ("the article about X", 《X》), still to be looked up. */
  pageHint?: string
  /** edit_content: what to change, in the author's words. */
  instruction?: string
  /** research and answer_question: what to look for or answer. */
  query?: string
  /** write_article: the folder the author asked for ("in notes/", "放在 notes"). */
  folder?: string
  /** help: the slash command that was not recognized. */
  unknownCommand?: string
}

export interface IntentParse {
  intent: Intent
  /** 0..1; below `CONFIDENCE_FLOOR` the caller should ask instead of acting. */
  confidence: number
  params: IntentParams
  source: IntentSource
}

export interface RouteContext {
  currentFile?: string
  selectedText?: string
  /** Pages the author @-mentioned: their text goes with an agent request. */
  mentions?: string[]
}

/** What a command or pattern rule decides, before the router stamps the source. */
export type IntentMatch = Omit<IntentParse, 'source'>
