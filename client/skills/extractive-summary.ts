// A summary without a model: the page's own most informative sentences, in page order.
import { CJK_CHARACTER, plainInline, proseBlocks, splitSentences, termsOf } from './prose'

interface Sentence {
  text: string
  order: number
  /** The first sentence of its section: where writers put the point of a section. */
  lead: boolean
  terms: string[]
  score: number
}

const CJK_CHARACTERS = new RegExp(CJK_CHARACTER.source, 'gu')

/** Long enough to say something: four Latin words, or eight CJK characters. */
function isSubstantial(sentence: string): boolean {
  const cjk = Array.from(sentence).filter((character) => CJK_CHARACTER.test(character)).length
  const words = sentence.replace(CJK_CHARACTERS, ' ').split(/\s+/).filter((word) => /[\p{L}\p{N}]/u.test(word)).length
  return words >= 4 || cjk >= 8 || (cjk >= 4 && words >= 2)
}

/** Sentences of the page's prose; each list item stands alone, since items rarely end in a full stop. */
function collectSentences(markdown: string): Sentence[] {
  const sentences: Sentence[] = []
  let section = -1
  for (const block of proseBlocks(markdown)) {
    const items = block.markdown.split(/\n(?=\s*(?:[-*+]|\d+[.)])\s)/)
    for (const item of items) {
      for (const text of splitSentences(plainInline(item))) {
        if (!isSubstantial(text)) continue
        sentences.push({ text, order: sentences.length, lead: block.section !== section, terms: termsOf(text), score: 0 })
        section = block.section
      }
    }
  }
  return sentences
}

/** Term frequency over the page; a sentence scores the frequencies of its distinct terms, damped by length. */
function score(sentences: Sentence[]): void {
  const frequency = new Map<string, number>()
  for (const sentence of sentences) for (const term of sentence.terms) frequency.set(term, (frequency.get(term) ?? 0) + 1)
  for (const sentence of sentences) {
    const distinct = new Set(sentence.terms)
    let total = 0
    for (const term of distinct) total += frequency.get(term)! - 1
    sentence.score = total / Math.sqrt(Math.max(sentence.terms.length, 1))
  }
}

const byScore = (left: Sentence, right: Sentence) => right.score - left.score || left.order - right.order

/**
 * About `count` sentences that carry the page: its first sentence, the first sentence under each
 * heading (the best-scoring ones if there are too many), then the top sentences by term frequency.
 * Plain text, in page order, with no label: the caller says what it is.
 */
export function extractiveSummary(markdown: string, count = 5): string[] {
  const sentences = collectSentences(markdown)
  if (sentences.length <= count) return sentences.map((sentence) => sentence.text)
  score(sentences)
  const chosen = new Set<Sentence>([sentences[0]!])
  const leads = sentences.filter((sentence) => sentence.lead).sort(byScore)
  for (const sentence of [...leads, ...[...sentences].sort(byScore)]) {
    if (chosen.size >= count) break
    chosen.add(sentence)
  }
  return sentences.filter((sentence) => chosen.has(sentence)).map((sentence) => sentence.text)
}

const LABEL = /^(?:tl;?dr|summary|in short|in brief|总结|摘要|概要|简介)\s*[:：]\s*/i

/** The first sentence of a Markdown text (a model's summary), for a page description. */
export function firstSentence(markdown: string): string {
  for (const block of proseBlocks(markdown)) {
    const sentence = splitSentences(plainInline(block.markdown).replace(LABEL, ''))[0]
    if (sentence) return sentence
  }
  return ''
}
