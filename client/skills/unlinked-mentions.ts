// Finds other pages' titles mentioned in a page's prose without a link, and links the first of each.
import { FRONT_MATTER } from './markdown'
import { CJK_CHARACTER, WORD_CHARACTER, fenceOpening, isClosingFence } from './prose'

export interface LinkCandidate {
  path: string
  title: string
}

export interface Mention {
  path: string
  title: string
  /** The words as the page writes them, kept as the link's label. */
  text: string
  start: number
  end: number
}

const MIN_TITLE_LENGTH = 4
const HIDDEN = '\u0000'

// Text that is not linkable prose: code spans, links of both kinds, images, URLs, HTML tags,
// headings, table rows (a `|` label would split the row) and link definitions.
const NOT_PROSE: readonly RegExp[] = [
  /(`+)(?!`)(?:(?!\n[ \t]*\n)[\s\S])*?(?<!`)\1(?!`)/g,
  /!?\[\[[^\]\n]*\]\]/g,
  /!?\[[^\]\n]*\](?:\([^)\n]*\)|\[[^\]\n]*\])/g,
  /<\/?[A-Za-z][^>\n]*>/g,
  /\bhttps?:\/\/[^\s)>\]]+/g,
  /^[ \t]{0,3}#{1,6}(?:[ \t].*)?$/gm,
  /^[ \t]{0,3}\|.*$/gm,
  /^[ \t]{0,3}\[[^\]\n]+\]:.*$/gm,
]

const hide = (text: string) => text.replace(/[^\n]/g, HIDDEN)

/** The source with everything that is not prose replaced by NUL characters, at the same offsets. */
export function proseOnly(source: string): string {
  let text = source.replace(FRONT_MATTER, hide)
  const lines = text.split('\n')
  let fence: string | null = null
  for (let index = 0; index < lines.length; index++) {
    const line = lines[index]!
    if (fence !== null) {
      if (isClosingFence(line.replace(/\r$/, ''), fence)) fence = null
      lines[index] = hide(line)
    } else {
      fence = fenceOpening(line)
      if (fence !== null) lines[index] = hide(line)
    }
  }
  text = lines.join('\n')
  for (const pattern of NOT_PROSE) text = text.replace(pattern, hide)
  return text
}

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
const isWordCharacter = (character: string) => /[\p{L}\p{N}_]/u.test(character) && !CJK_CHARACTER.test(character)

/** Case-insensitive; whole words where the title starts or ends in a word-spaced script, substrings in CJK. */
function titlePattern(title: string): RegExp {
  const characters = Array.from(title)
  const body = title.split(/\s+/).map(escape).join('[^\\S\\n]+')
  const before = isWordCharacter(characters[0]!) ? `(?<!${WORD_CHARACTER})` : ''
  const after = isWordCharacter(characters.at(-1)!) ? `(?!${WORD_CHARACTER})` : ''
  return new RegExp(`${before}${body}${after}`, 'giu')
}

/**
 * The first unlinked mention of each candidate's title in the page's prose, in page order. Longer
 * titles are matched first, so "Rust Traits in Depth" wins over "Rust Traits" on the same words.
 * Titles shorter than four characters, titles two pages share, and titles with link syntax in them
 * are left out.
 */
export function findUnlinkedMentions(source: string, candidates: readonly LinkCandidate[]): Mention[] {
  const byTitle = new Map<string, LinkCandidate[]>()
  for (const candidate of candidates) {
    const title = candidate.title.trim()
    if (Array.from(title).length < MIN_TITLE_LENGTH || /[[\]|\n]/.test(title)) continue
    const key = title.toLowerCase()
    byTitle.set(key, [...(byTitle.get(key) ?? []), { path: candidate.path, title }])
  }
  const unique = [...byTitle.values()].filter((group) => group.length === 1).map((group) => group[0]!)
  unique.sort((left, right) => right.title.length - left.title.length)

  let text = proseOnly(source)
  const mentions: Mention[] = []
  for (const candidate of unique) {
    const match = titlePattern(candidate.title).exec(text)
    if (!match) continue
    const start = match.index
    const end = start + match[0].length
    mentions.push({ path: candidate.path, title: candidate.title, text: source.slice(start, end), start, end })
    text = text.slice(0, start) + HIDDEN.repeat(end - start) + text.slice(end)
  }
  return mentions.sort((left, right) => left.start - right.start)
}

/** The wiki-link for a mention: `[[posts/x|the words as written]]`. */
export function wikiLinkFor(mention: Pick<Mention, 'path' | 'text'>): string {
  return `[[${mention.path.replace(/\.md$/i, '')}|${mention.text}]]`
}

/** The source with each mention wrapped in a wiki-link; mentions must not overlap. */
export function linkMentions(source: string, mentions: readonly Mention[]): string {
  let result = source
  for (const mention of [...mentions].sort((left, right) => right.start - left.start)) {
    result = result.slice(0, mention.start) + wikiLinkFor(mention) + result.slice(mention.end)
  }
  return result
}
