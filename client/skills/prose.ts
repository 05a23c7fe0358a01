// Reads a Markdown page as prose: paragraphs under their headings, without code, tables or HTML.
import { stripFrontMatter } from './markdown'

// Scripts written without spaces between words, where a "word" can only be matched as a substring.
const CJK_CLASS = '\\p{Script=Han}\\p{Script=Hiragana}\\p{Script=Katakana}\\p{Script=Hangul}'
export const CJK_CHARACTER = new RegExp(`[${CJK_CLASS}]`, 'u')
const CJK_RUN = new RegExp(`[${CJK_CLASS}]+`, 'gu')
/** A letter, digit or underscore of a word-spaced script, as regex source: CJK next to a Latin word is a boundary. */
export const WORD_CHARACTER = `(?:(?![${CJK_CLASS}])[\\p{L}\\p{N}_])`

export interface ProseBlock {
  /** The paragraph's Markdown, its lines joined with '\n'. */
  markdown: string
  /** 0 before the first heading, then one more for each heading. */
  section: number
}

const FENCE = /^[ \t]*(`{3,}|~{3,})/
const HEADING = /^\s{0,3}#{1,6}(?:\s|$)/
// Tables, HTML, VitePress containers, lone images and link definitions are not prose.
const NOT_PROSE = /^\s{0,3}(?:\||<|:::|!\[[^\]]*\]\([^)]*\)\s*$|\[[^\]]+\]:\s)/

/** The page's paragraphs and lists in order; code fences, headings and front matter left out. */
export function proseBlocks(markdown: string): ProseBlock[] {
  const blocks: ProseBlock[] = []
  let lines: string[] = []
  let section = 0
  let fence: string | null = null
  const flush = () => {
    if (lines.length > 0) blocks.push({ markdown: lines.join('\n'), section })
    lines = []
  }
  for (const line of stripFrontMatter(markdown).split(/\r?\n/)) {
    if (fence !== null) {
      if (isClosingFence(line, fence)) fence = null
      continue
    }
    const opening = fenceOpening(line)
    if (opening !== null) {
      flush()
      fence = opening
    } else if (isHeading(line)) {
      flush()
      section++
    } else if (line.trim() === '' || NOT_PROSE.test(line)) flush()
    else lines.push(line)
  }
  flush()
  return blocks
}

export function isHeading(line: string): boolean {
  return HEADING.test(line)
}

/** The backticks or tildes that open a code fence on this line, or null. */
export function fenceOpening(line: string): string | null {
  return FENCE.exec(line)?.[1] ?? null
}

/** A fence closes with the same character, at least as many times, and nothing else on the line. */
export function isClosingFence(line: string, opening: string): boolean {
  const trimmed = line.trim()
  return trimmed.length >= opening.length && trimmed === opening[0]!.repeat(trimmed.length)
}

/** The text a reader sees: links, emphasis, code marks, list and quote markers and HTML dropped. */
export function plainInline(markdown: string): string {
  return markdown
    .replace(/^[ \t]{0,3}(?:>[ \t]?)+/gm, '')
    .replace(/^[ \t]*(?:[-*+]|\d+[.)])[ \t]+(?:\[[ xX]\][ \t]+)?/gm, '')
    .replace(/!\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/\[\[([^\]|#]*)(?:#([^\]|]*))?(?:\|([^\]]*))?\]\]/g, (_match, target: string, heading?: string, label?: string) =>
      (label ?? (target.trim() || heading || '')).trim(),
    )
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/(`+)([^`]+?)\1/g, '$2')
    .replace(/(\*\*|\*|~~)(?=\S)([\s\S]*?\S)\1/g, '$2')
    .replace(/(?<![\p{L}\p{N}])(__|_)(?=\S)([\s\S]*?\S)\1(?![\p{L}\p{N}])/gu, '$2')
    .replace(/<\/?[a-zA-Z][^>]*>/g, '')
    .replace(/\s+/g, ' ')
    .trim()
}

const ABBREVIATION = /(?:^|\s)(?:e\.g|i\.e|etc|vs|cf|mr|mrs|ms|dr|st|no|fig|approx)\.$/i

/** Splits plain text into sentences: after . ! ? followed by a space, and after 。！？ at once. */
export function splitSentences(text: string): string[] {
  const pieces = text.split(/(?<=[.!?]["'”’)\]]*)\s+|(?<=[。！？]["'”’」』)）]*)(?!["'”’」』)）])/u)
  const sentences: string[] = []
  for (const piece of pieces) {
    const sentence = piece.trim()
    if (!sentence) continue
    const previous = sentences.at(-1)
    // "e.g. this" is one sentence, not two.
    if (previous !== undefined && ABBREVIATION.test(previous)) sentences[sentences.length - 1] = `${previous} ${sentence}`
    else sentences.push(sentence)
  }
  return sentences
}

const STOP_WORDS = new Set(
  ('a an and are as at be been but by can did do does for from had has have how i if in into is it its just ' +
    'me more my no not of on or our so than that the their them then there these they this those to too ' +
    'use used using was we were what when where which who why will with would you your about also any ' +
    'all each such only other some very over out up')
    .split(' '),
)

// Question words and fillers that say nothing about the subject.
const CJK_STOP_WORDS = new Set(['如何', '怎么', '怎样', '什么', '为什么', '哪些', '是否', '可以', '一个', '我们', '你们', '关于', '这个', '那个', '一下', '的是', '是什'])

/**
 * The words of a text for matching and counting: Latin words in lower case (stop words and
 * one-letter words left out), and for CJK runs their overlapping two-character pieces (or the
 * character itself, for a run of one).
 */
export function termsOf(text: string): string[] {
  const normalized = text.normalize('NFKC').toLowerCase()
  const terms: string[] = []
  for (const word of normalized.replace(CJK_RUN, ' ').match(/[\p{L}\p{N}][\p{L}\p{N}_'-]*/gu) ?? []) {
    if (word.length > 1 && !STOP_WORDS.has(word)) terms.push(word)
  }
  for (const run of normalized.match(CJK_RUN) ?? []) {
    const characters = Array.from(run)
    if (characters.length === 1) terms.push(run)
    for (let index = 0; index + 1 < characters.length; index++) {
      const pair = characters[index]! + characters[index + 1]!
      if (!CJK_STOP_WORDS.has(pair)) terms.push(pair)
    }
  }
  return terms
}

export function isCjkTerm(term: string): boolean {
  return CJK_CHARACTER.test(term)
}
