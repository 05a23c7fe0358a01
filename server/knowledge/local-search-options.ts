// VitePress's local search (MiniSearch) splits words on spaces and punctuation, so a Chinese sentence
// is one term and `知识图谱` finds nothing. These options give it MetaBlog's CJK-aware tokenizer.
import { processTerm, tokenize, tokenizeQuery } from './tokenizer.js'

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
        options: { tokenize, processTerm, ...miniSearch.options },
        // A query's CJK run gives only its bigrams: fewer, more selective terms.
        searchOptions: { tokenize: tokenizeQuery, ...miniSearch.searchOptions },
      },
    },
  }
}
