// Chinese and Japanese are written without spaces, so a word tokenizer would index a whole sentence
// as one term. CJK runs become single characters plus overlapping bigrams instead: a query's bigrams
// then match the same bigrams in the text, which keeps the characters' order, and one-character
// queries still work.
const CJK = '[\\p{Script=Han}\\p{Script=Hiragana}\\p{Script=Katakana}]'

/**
 * Splits text into terms: runs of letters and digits, and CJK runs as bigrams (a lone character
 * alone), plus every single character when `withCharacters` is truthy.
 *
 * Self-contained on purpose: VitePress ships functions in `themeConfig` to the browser as their
 * source text, so this one must not refer to anything outside its own body. MiniSearch calls it with
 * a field name while indexing (characters and bigrams) and with the query alone (bigrams only).
 */
export function splitTerms(text: string, withCharacters?: unknown): string[] {
  const cjk = '[\\p{Script=Han}\\p{Script=Hiragana}\\p{Script=Katakana}]'
  // A CJK run, or a run of other letters and digits (the `v` flag subtracts CJK from the letters).
  const segments = new RegExp(`(${cjk}+)|[[\\p{L}\\p{N}_]--${cjk}]+`, 'gv')
  const tokens: string[] = []
  for (let match = segments.exec(text); match; match = segments.exec(text)) {
    const run = match[1]
    if (run === undefined) {
      tokens.push(match[0])
      continue
    }
    const characters = Array.from(run)
    if (characters.length === 1) tokens.push(characters[0]!)
    for (let index = 0; index + 1 < characters.length; index++) {
      if (withCharacters) tokens.push(characters[index]!)
      tokens.push(characters[index]! + characters[index + 1]!)
    }
    if (withCharacters && characters.length > 1) tokens.push(characters[characters.length - 1]!)
  }
  return tokens
}

/** For indexing: CJK runs give every character and every bigram. */
export function tokenize(text: string): string[] {
  return splitTerms(text, true)
}

/** For queries: CJK runs give only their bigrams (a single character alone), fewer and more selective terms. */
export function tokenizeQuery(text: string): string[] {
  return splitTerms(text, false)
}

const CJK_START = new RegExp(`^${CJK}`, 'u')

/** Self-contained too (see splitTerms). */
export function processTerm(term: string): string {
  return term.normalize('NFKC').toLowerCase()
}

export function isCjkTerm(term: string): boolean {
  return CJK_START.test(term)
}
