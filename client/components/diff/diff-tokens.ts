// Splits Markdown into the units a reader compares: whole words, whole links and code spans, CJK words.

// Constructs that change as a whole: a link whose target changed is a different link, not two edits.
// Each is at most a few hundred characters long, so a page full of unclosed brackets stays linear.
const ATOMIC = [
  /!?\[\[[^[\]\n]{1,400}\]\]/y, // wiki-links and embeds
  /!?\[[^[\]\n]{0,400}\]\([^()\n]{0,400}\)/y, // links and images
  /<[a-z][a-z\d+.-]{0,30}:[^>\s]{0,400}>/iy, // autolinks
  /(`{1,8})[^`][\s\S]{0,400}?\1/y, // code spans
  /&(?:#\d{1,7}|#x[\da-f]{1,6}|[a-z][a-z\d]{0,30});/iy, // entities
]
// A word of a space-separated script keeps its hyphens, apostrophes and inner dots ("write-file-atomic", "don't", "v1.2").
const WORD = /(?:(?![\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}])[\p{L}\p{N}\p{M}_])+(?:['’.-](?:(?![\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}])[\p{L}\p{N}\p{M}_])+)*/uy
const CJK_RUN = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]+/uy
const WHITE_SPACE = /\s+/y
// Emphasis and strike marks as one run each.
const MARK_RUN = /\*+|~+/y

let segmenter: Intl.Segmenter | null | undefined

/** CJK text in words (Intl.Segmenter), or one character at a time where it is missing. */
function cjkWords(run: string): string[] {
  if (segmenter === undefined) segmenter = typeof Intl.Segmenter === 'function' ? new Intl.Segmenter('zh', { granularity: 'word' }) : null
  return segmenter ? Array.from(segmenter.segment(run), (part) => part.segment) : Array.from(run)
}

function matchAt(pattern: RegExp, text: string, at: number): string | null {
  pattern.lastIndex = at
  return pattern.exec(text)?.[0] ?? null
}

/** Tokens whose concatenation is `text`. */
export function diffTokens(text: string): string[] {
  const tokens: string[] = []
  for (let at = 0; at < text.length; ) {
    const atomic = ATOMIC.map((pattern) => matchAt(pattern, text, at)).find((found) => found !== null)
    const found = atomic ?? matchAt(WORD, text, at) ?? matchAt(WHITE_SPACE, text, at) ?? matchAt(MARK_RUN, text, at)
    if (found) {
      tokens.push(found)
      at += found.length
      continue
    }
    const cjk = matchAt(CJK_RUN, text, at)
    if (cjk) {
      tokens.push(...cjkWords(cjk))
      at += cjk.length
      continue
    }
    const char = String.fromCodePoint(text.codePointAt(at)!)
    tokens.push(char)
    at += char.length
  }
  return tokens
}

/** Counts the words of a text (a CJK word counts once). */
export function countWords(text: string): number {
  return diffTokens(text).filter((token) => /[\p{L}\p{N}]/u.test(token)).length
}
