// What the content guard decides about a page: made inert (and what changed), or refused (and why).
import type { NeutralizedItem } from '../../plugin/protocol.js'

/** Constructs the guard rewrites so they show as text. */
export type NeutralizedConstruct = NeutralizedItem['construct']

/** Constructs the guard refuses, because no rewrite keeps what the text meant. */
export type RefusedConstruct =
  | 'front-matter-engine'
  | 'front-matter-size'
  | 'front-matter-yaml'
  | 'front-matter-html'
  | 'front-matter-head'
  | 'front-matter-url'
  | 'include'
  | 'snippet'
  | 'vue-fence'
  | 'html-block-edit'
  | 'tag-continuation'
  | 'code-exposed'

/** One rewritten construct, as the write's answer lists it. */
export type Neutralization = NeutralizedItem

export interface Refusal {
  /** 1-based line of the page as sent. */
  line: number
  construct: RefusedConstruct
  /** Names the construct and the line, and says what to do instead. */
  message: string
}

export type Verdict = { ok: true; content: string; neutralized: Neutralization[] } | ({ ok: false } & Refusal)
