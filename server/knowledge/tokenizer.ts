// Chinese and Japanese are written without spaces, so a word tokenizer would index a whole sentence
// as one term. CJK runs become single characters plus overlapping bigrams instead: a query's bigrams
// then match the same bigrams in the text, which keeps the characters' order, and one-character
// queries still work.
const CJK = '[\\p{Script=Han}\\p{Script=Hiragana}\\p{Script=Katakana}]'
// A CJK run, or a run of other letters and digits (the `v` flag subtracts CJK from the letters).
const SEGMENTS = new RegExp(`(${CJK}+)|[[\\p{L}\\p{N}_]--${CJK}]+`, 'gv')

/** For indexing: CJK runs give every character and every bigram. */
export function tokenize(text: string): string[] {
  return split(text, true)
}

/** For queries: CJK runs give only their bigrams (a single character alone), fewer and more selective terms. */
export function tokenizeQuery(text: string): string[] {
  return split(text, false)
}

function split(text: string, withCharacters: boolean): string[] {
  const tokens: string[] = []
  SEGMENTS.lastIndex = 0
  for (let match = SEGMENTS.exec(text); match; match = SEGMENTS.exec(text)) {
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

const CJK_START = new RegExp(`^${CJK}`, 'u')

export function processTerm(term: string): string {
  return term.normalize('NFKC').toLowerCase()
}

export function isCjkTerm(term: string): boolean {
  return CJK_START.test(term)
}
