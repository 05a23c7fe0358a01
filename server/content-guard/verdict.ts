// What the content guard decides about a page: made inert (and what changed), or refused (and why).

/** Constructs the guard rewrites so they show as text. */
export type NeutralizedConstruct = 'html' | 'script' | 'interpolation' | 'attributes' | 'script-url' | 'fence-info'

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
  | 'code-exposed'
  | 'unsafe-markdown'

/** Mirrors NeutralizedItem in plugin/protocol.ts. */
export interface Neutralization {
  /** 1-based line of the stored page. */
  line: number
  construct: NeutralizedConstruct
}

export interface Refusal {
  /** 1-based line of the page as sent. */
  line: number
  construct: RefusedConstruct
  /** Names the construct and the line, and says what to do instead. */
  message: string
}

export type Verdict = { ok: true; content: string; neutralized: Neutralization[] } | ({ ok: false } & Refusal)
