import { describe, expect, it } from 'vitest'
import { withCjkTokenizer } from '../../../../server/knowledge/local-search-options.js'
import { processTerm, splitTerms, tokenize, tokenizeQuery } from '../../../../server/knowledge/tokenizer.js'

/** What VitePress does to a `themeConfig` function on its way to the browser: source text, revived alone. */
const revive = <T>(fn: T): T => new Function(`return ${String(fn)}`)() as T

describe('withCjkTokenizer', () => {
  it('leaves search off, or on another provider, as it was', () => {
    expect(withCjkTokenizer(undefined)).toBeUndefined()
    const algolia = { provider: 'algolia', options: { appId: 'x' } }
    expect(withCjkTokenizer(algolia)).toBe(algolia)
  })

  it("gives local search the tokenizer for indexing and queries, keeping the author's own options", () => {
    const search = withCjkTokenizer({ provider: 'local', options: { detailedView: true, miniSearch: { searchOptions: { fuzzy: 0.1 } } } })
    expect(search.options?.detailedView).toBe(true)
    expect(search.options?.miniSearch?.options).toEqual({ tokenize: splitTerms, processTerm })
    expect(search.options?.miniSearch?.searchOptions).toEqual({ tokenize: splitTerms, fuzzy: 0.1 })
    const own = () => ['mine']
    expect(withCjkTokenizer({ provider: 'local', options: { miniSearch: { options: { tokenize: own } } } }).options?.miniSearch?.options?.tokenize).toBe(own)
  })
})

describe('splitTerms', () => {
  const text = 'VitePress 知识图谱与双向链接, ETag: 412'

  it('indexes characters and bigrams when MiniSearch passes a field name; queries get bigrams only', () => {
    expect(splitTerms(text, 'text')).toEqual(tokenize(text))
    expect(splitTerms(text)).toEqual(tokenizeQuery(text))
    expect(splitTerms('知识图谱')).toEqual(['知识', '识图', '图谱'])
    expect(splitTerms('知识图谱', 'title')).toEqual(['知', '知识', '识', '识图', '图', '图谱', '谱'])
  })

  it('works revived from its source text alone, as the browser gets it', () => {
    expect(revive(splitTerms)(text, 'text')).toEqual(tokenize(text))
    expect(revive(splitTerms)(text)).toEqual(tokenizeQuery(text))
    expect(revive(processTerm)('ＥＴａｇ')).toBe('etag')
  })
})
