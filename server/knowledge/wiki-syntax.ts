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
  return ASSET_EXTENSIONS.has(extensionOf(target))
}

export function isImageTarget(target: string): boolean {
  return IMAGE_EXTENSIONS.has(extensionOf(target))
}

/** Splits the text between `[[` and `]]`. Returns null when it is not a link (empty, or a line break). */
export function parseWikiInner(inner: string): WikiLinkParts | null {
  if (inner.includes('\n') || inner.includes('[[')) return null
  const pipe = inner.indexOf('|')
  let reference = pipe === -1 ? inner : inner.slice(0, pipe)
  // In a raw table row the pipe is escaped as `\|`; the backslash belongs to the syntax.
  if (pipe !== -1 && reference.endsWith('\\')) reference = reference.slice(0, -1)
  const label = pipe === -1 ? undefined : inner.slice(pipe + 1).trim()
  const hash = reference.indexOf('#')
  const target = (hash === -1 ? reference : reference.slice(0, hash)).trim()
  const headingPath = hash === -1 ? undefined : reference.slice(hash + 1)
  const heading = headingPath
    ?.split('#')
    .map((part) => part.trim())
    .filter(Boolean)
    .pop()
  if (!target && !heading) return null
  return {
    target,
    ...(heading ? { heading } : {}),
    ...(label ? { label } : {}),
  }
}

// Printable ASCII without surrounding spaces is already NFC and trimmed: the common case, kept cheap.
const SIMPLE_NAME = /^[!-~](?:[ -~]*[!-~])?$/
const MD_EXTENSION = /\.md$/i

/**
 * The lookup key of a name: NFC, trimmed, whitespace collapsed, lower case, without a leading
 * '/' or a trailing '.md'. File names, paths, titles and aliases are compared by this key.
 */
export function nameKey(name: string): string {
  let key = SIMPLE_NAME.test(name) && !name.includes('  ') ? name : name.normalize('NFC').trim().replace(/\s+/g, ' ')
  if (key.charCodeAt(0) === 47 /* / */) key = key.replace(/^\/+/, '')
  if (MD_EXTENSION.test(key)) key = key.slice(0, -3)
  return key.toLowerCase()
}
