// The syntax of one `[[…]]`, shared by the server-side parser and the markdown-it rule so both
// read a link the same way.

export interface WikiLinkParts {
  /** The page part as written, trimmed: 'notes/foo', 'Some Title', '' for `[[#Heading]]`. */
  target: string
  /** The text after `#`, if any (the last one, for Obsidian's nested `#A#B`). */
  heading?: string
  /** The text after `|` (or `\|` inside tables), if any. */
  label?: string
}

const ASSET_EXTENSIONS = new Set([
  'png', 'jpg', 'jpeg', 'gif', 'svg', 'webp', 'avif', 'bmp', 'ico',
  'mp3', 'wav', 'ogg', 'flac', 'm4a', 'mp4', 'webm', 'mov', 'pdf',
])
const IMAGE_EXTENSIONS = new Set(['png', 'jpg', 'jpeg', 'gif', 'svg', 'webp', 'avif', 'bmp', 'ico'])

function extensionOf(target: string): string {
  const name = target.slice(target.lastIndexOf('/') + 1)
  const dot = name.lastIndexOf('.')
  return dot <= 0 ? '' : name.slice(dot + 1).toLowerCase()
}

/** A link to a file that is not a page (`![[diagram.png]]`): never an edge, never unresolved. */
export function isAssetTarget(target: string): boolean {
  // Most targets have no dot at all: skip the slicing.
  return target.includes('.') && ASSET_EXTENSIONS.has(extensionOf(target))
}

export function isImageTarget(target: string): boolean {
  return IMAGE_EXTENSIONS.has(extensionOf(target))
}

/** The last non-blank '#'-separated part of `text`: Obsidian's nested `#A#B` links to B. */
function lastHeading(text: string): string | undefined {
  for (let end = text.length; ; ) {
    const hash = end > 0 ? text.lastIndexOf('#', end - 1) : -1
    const part = text.slice(hash + 1, end).trim()
    if (part) return part
    if (hash === -1) return undefined
    end = hash
  }
}

// VitePress's own `[[toc]]` (a table of contents) looks like a wiki-link; it is left to VitePress.
const VITEPRESS_SYNTAX = /^\s*toc\s*$/i

/** A `[[…]]` or `![[…]]` found at a position of inline text. */
export interface WikiLinkMatch {
  embed: boolean
  /** Where `[[` starts (after the `!` of an embed). */
  open: number
  /** Where `]]` starts. */
  close: number
  inner: string
  parts: WikiLinkParts
}

/** The wiki-link or embed starting at `start` of `src`, closing before `max`; null when there is none. Shared by the site's rule and the page's source map. */
export function wikiLinkAt(src: string, start: number, max: number): WikiLinkMatch | null {
  const embed = src.charCodeAt(start) === 0x21 /* ! */
  const open = embed ? start + 1 : start
  if (src.charCodeAt(open) !== 0x5b || src.charCodeAt(open + 1) !== 0x5b) return null
  const close = src.indexOf(']]', open + 2)
  if (close === -1 || close + 2 > max) return null
  const inner = src.slice(open + 2, close)
  const parts = parseWikiInner(inner)
  return parts ? { embed, open, close, inner, parts } : null
}

/** Splits the text between `[[` and `]]`. Returns null when it is not a link (empty, a line break, or VitePress's `[[toc]]`). */
export function parseWikiInner(inner: string): WikiLinkParts | null {
  if (inner.includes('\n') || inner.includes('[[') || VITEPRESS_SYNTAX.test(inner)) return null
  const pipe = inner.indexOf('|')
  // In a raw table row the pipe is escaped as `\|`; the backslash belongs to the syntax.
  const referenceEnd = pipe === -1 ? inner.length : pipe > 0 && inner.charCodeAt(pipe - 1) === 92 ? pipe - 1 : pipe
  const found = inner.indexOf('#')
  const hash = found < referenceEnd ? found : -1
  const target = inner.slice(0, hash === -1 ? referenceEnd : hash).trim()
  const heading = hash === -1 ? undefined : lastHeading(inner.slice(hash + 1, referenceEnd))
  if (!target && !heading) return null
  // Absent parts stay absent (not undefined) and objects are built once, without spreading.
  const parts: WikiLinkParts = { target }
  if (heading) parts.heading = heading
  const label = pipe === -1 ? '' : inner.slice(pipe + 1).trim()
  if (label) parts.label = label
  return parts
}

/** Printable ASCII without surrounding spaces or a double space is already NFC, trimmed and collapsed. */
function isSimpleName(name: string): boolean {
  const last = name.length - 1
  if (last < 0 || name.charCodeAt(0) === 32 || name.charCodeAt(last) === 32) return false
  for (let index = 0; index <= last; index++) {
    const code = name.charCodeAt(index)
    if (code < 32 || code > 126 || (code === 32 && name.charCodeAt(index + 1) === 32)) return false
  }
  return true
}

/** Ends in '.md', any case. */
function hasMarkdownExtension(key: string): boolean {
  const end = key.length
  return end >= 3 && key.charCodeAt(end - 3) === 46 && (key.charCodeAt(end - 2) | 32) === 109 && (key.charCodeAt(end - 1) | 32) === 100
}

/**
 * The lookup key of a name: NFC, trimmed, whitespace collapsed, lower case, without a leading
 * '/' or a trailing '.md'. File names, paths, titles and aliases are compared by this key.
 */
export function nameKey(name: string): string {
  let key = isSimpleName(name) ? name : name.normalize('NFC').trim().replace(/\s+/g, ' ')
  if (key.charCodeAt(0) === 47 /* / */) key = key.replace(/^\/+/, '')
  if (hasMarkdownExtension(key)) key = key.slice(0, -3)
  return key.toLowerCase()
}

/** The part of markdown-it's inline state a label's parse uses (typed here so this module needs no markdown-it). */
interface InlineState<State> {
  pos: number
  posMax: number
  linkLevel: number
  md: { inline: { tokenize(state: State): void } }
}

/** Parses a link's label [start, end) in place as Markdown (emphasis, code), as markdown-it parses a normal link's text. */
export function tokenizeLabel<State extends InlineState<State>>(state: State, start: number, end: number): void {
  const { pos, posMax } = state
  state.pos = start
  state.posMax = end
  state.linkLevel++
  state.md.inline.tokenize(state)
  state.linkLevel--
  state.pos = pos
  state.posMax = posMax
}
