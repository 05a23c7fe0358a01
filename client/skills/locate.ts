// Finds the text the author selected on the rendered page in the page's Markdown source.

export type Located = { start: number; end: number } | { problem: 'missing' | 'ambiguous' }

const MARKUP = new Set(['*', '_', '`', '~'])

function occurrences(haystack: string, needle: string): number[] {
  const found: number[] = []
  for (let index = haystack.indexOf(needle); index !== -1; index = haystack.indexOf(needle, index + 1)) found.push(index)
  return found
}

/** The source as the reader sees it: markup dropped, link targets dropped, white space folded; with a map back. */
function project(source: string): { plain: string; map: number[] } {
  let plain = ''
  const map: number[] = []
  for (let index = 0; index < source.length; index++) {
    const char = source[index]!
    if (char === ']' && source[index + 1] === '(') {
      const close = source.indexOf(')', index)
      if (close !== -1) {
        index = close
        continue
      }
    }
    if (MARKUP.has(char) || char === '[' || char === ']') continue
    if (/\s/.test(char)) {
      if (plain.endsWith(' ')) continue
      plain += ' '
    } else plain += char
    map.push(index)
  }
  return { plain, map }
}

function fold(text: string): string {
  return project(text).plain.trim()
}

/** Exact, then white-space tolerant, then markup tolerant; a text found twice is ambiguous. */
export function locateSelection(source: string, selection: string): Located {
  const wanted = selection.trim()
  if (!wanted) return { problem: 'missing' }
  const exact = occurrences(source, wanted)
  if (exact.length === 1) return { start: exact[0]!, end: exact[0]! + wanted.length }
  if (exact.length > 1) return { problem: 'ambiguous' }

  const { plain, map } = project(source)
  const needle = fold(wanted)
  const found = occurrences(plain, needle)
  if (found.length === 0) return { problem: 'missing' }
  if (found.length > 1) return { problem: 'ambiguous' }
  return balanceMarkup(source, map[found[0]!]!, map[found[0]! + needle.length - 1]! + 1)
}

/** A span that closes a mark it does not open takes in the opening mark just before it, and the reverse. */
function balanceMarkup(source: string, start: number, end: number): { start: number; end: number } {
  const opened: string[] = []
  const unopened: string[] = []
  for (const match of source.slice(start, end).matchAll(/\*+|_+|`+|~+/g)) {
    const run = match[0]
    const before = source[start + match.index - 1] ?? ' '
    if (opened.at(-1) === run) opened.pop()
    else if (opened.length === 0 && !/\s/.test(before) && match.index > 0) unopened.push(run)
    else opened.push(run)
  }
  for (const run of unopened.reverse()) if (source.slice(start - run.length, start) === run) start -= run.length
  for (const run of opened.reverse()) if (source.startsWith(run, end)) end += run.length
  return { start, end }
}
