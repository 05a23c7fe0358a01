// Titles cased the way the author's language writes them: English in title case, everything else as typed.

// Articles, short conjunctions and short prepositions stay lowercase inside an English title (Chicago style).
const SMALL_WORDS = new Set([
  'a', 'an', 'the', 'and', 'but', 'or', 'nor', 'for', 'so', 'yet', 'as', 'at', 'by', 'in', 'of', 'off', 'on', 'per', 'to', 'up', 'via', 'vs', 'vs.', 'with', 'from', 'into', 'onto', 'over', 'than', 'v.',
])

// Scripts whose titles have no letter case to set: Chinese, Japanese, Korean.
const CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u
// Letters outside ASCII that English words rarely carry: a sign the title is in another Latin-script language.
const FOREIGN_LETTER = /[^\p{ASCII}\u00e9\u00e8\u00ef\u00f1\u00e7]/u

/** Whether the text is written in a script with no case (Chinese, Japanese, Korean). */
export function isCjkText(text: string): boolean {
  return CJK.test(text)
}

/** A word the author cased on purpose: "iOS", "ETags", "HTTP", "JavaScript", a path or a version. */
function isDeliberate(word: string): boolean {
  return /\p{Lu}/u.test(word.slice(1)) || /[./\\@#_\d]/.test(word)
}

function capitalize(word: string): string {
  // Hyphenated compounds take a capital on each part: "Offline-First".
  return word
    .split('-')
    .map((part) => {
      const index = part.search(/\p{L}/u)
      return index < 0 ? part : part.slice(0, index) + part.charAt(index).toUpperCase() + part.slice(index + 1)
    })
    .join('-')
}

/** English title case: each word capitalized, small words lowercase except first, last and after a colon; deliberate casing kept. */
export function englishTitleCase(text: string): string {
  const words = text.trim().split(/(\s+)/)
  const indexes = words.map((_, index) => index).filter((index) => index % 2 === 0 && words[index] !== '')
  const first = indexes[0]
  const last = indexes.at(-1)
  let afterColon = false
  for (const index of indexes) {
    const word = words[index]!
    const bare = word.toLowerCase().replace(/^[("'“‘[]+|[)"'”’\],;:!?]+$/g, '')
    if (isDeliberate(word)) words[index] = word
    else if (SMALL_WORDS.has(bare) && index !== first && index !== last && !afterColon) words[index] = word.toLowerCase()
    else words[index] = capitalize(word)
    afterColon = /[:—–]$/.test(word) || word === '-'
  }
  return words.join('')
}

/**
 * A title in the casing its language uses: CJK left exactly as written, English in title case,
 * another Latin-script language only with its first letter raised (its own rules are not ours to guess).
 */
export function titleCase(text: string): string {
  const title = text.trim()
  if (title === '' || isCjkText(title)) return title
  if (FOREIGN_LETTER.test(title.replace(/[\s\p{P}\p{S}\p{N}]/gu, ''))) return title.replace(/\p{L}/u, (letter) => letter.toUpperCase())
  return englishTitleCase(title)
}
