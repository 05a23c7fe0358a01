// VitePress's local search (MiniSearch) splits words on spaces and punctuation, so a Chinese sentence
// is one term and `知识图谱` finds nothing. These options give it MetaBlog's CJK-aware tokenizer, in
// the index (built in Node) and in the search box: VitePress sends `themeConfig` functions to the
// browser as source text, which is why the tokenizer is one self-contained function.
import { processTerm, splitTerms } from './tokenizer.js'

/** The part of VitePress's `themeConfig.search` these options touch. */
export interface LocalSearchConfig {
  provider?: string
  options?: {
    miniSearch?: {
      options?: Record<string, unknown>
      searchOptions?: Record<string, unknown>
    }
    [key: string]: unknown
  }
  [key: string]: unknown
}

/**
 * The search config with the CJK tokenizer for indexing and for queries, unless the author set their
 * own. Anything but `provider: 'local'` is returned as it is: search stays off where it was off.
 */
export function withCjkTokenizer<T extends LocalSearchConfig | undefined>(search: T): T {
  if (!search || search.provider !== 'local') return search
  const options = search.options ?? {}
  const miniSearch = options.miniSearch ?? {}
  return {
    ...search,
    options: {
      ...options,
      miniSearch: {
        ...miniSearch,
        options: { tokenize: splitTerms, processTerm, ...miniSearch.options },
        // Called with the query alone, it gives a CJK run's bigrams only: fewer, more selective terms.
        searchOptions: { tokenize: splitTerms, ...miniSearch.searchOptions },
      },
    },
  }
}
