// Pages and queries built to make a backtracking regular expression take minutes. Every one must
// be read in about the time of an ordinary page of that size: the bound below is many times what
// a linear reading needs and a small fraction of what the quadratic and cubic versions took.
import { describe, expect, it } from 'vitest'
import { parsePage } from '../../../../server/knowledge/parse-page.js'
import { markdownToText } from '../../../../server/knowledge/plain-text.js'
import { SearchIndex } from '../../../../server/knowledge/search-index.js'

const SIZE = 200_000
const BOUND_MS = 3_000

const hostile: Record<string, string> = {
  'a heading with a long run of blanks': `# a${' '.repeat(SIZE)}b\n`,
  'a heading with blanks before an unclosed id': `## a${' '.repeat(SIZE)}{x\n`,
  'a paragraph of blanks before a letter': `${' '.repeat(SIZE)}x`,
  'tabs and blanks': `${'\t '.repeat(SIZE / 2)}x`,
  'a line of brackets': `# x\n\n${'['.repeat(SIZE)}`,
  'unclosed wiki-links': '[['.repeat(SIZE / 2),
  'unclosed Markdown links': '[a]('.repeat(SIZE / 4),
  'unclosed comments': '<!--'.repeat(SIZE / 4),
  'unclosed tags': '<a '.repeat(SIZE / 3),
  'backticks and letters': '`a'.repeat(SIZE / 2),
}

function elapsed(work: () => unknown): number {
  const started = performance.now()
  work()
  return performance.now() - started
}

describe('hostile page content', () => {
  it.each(Object.entries(hostile))('%s: indexed and reduced to text without a hang', (_name, content) => {
    expect(elapsed(() => parsePage('posts/hostile.md', content))).toBeLessThan(BOUND_MS)
    expect(elapsed(() => markdownToText(content))).toBeLessThan(BOUND_MS)
  })

  it('a search query of many thousand characters answers instead of failing', () => {
    const index = SearchIndex.build([{ path: 'posts/a.md', title: 'Alpha', tags: [], headings: [], content: 'alpha beta', bodyOffset: 0 }])
    const results = index.search(`alpha-${'x'.repeat(13_000)}`)
    expect(results.map((result) => result.path)).toEqual(['posts/a.md'])
  })
})
