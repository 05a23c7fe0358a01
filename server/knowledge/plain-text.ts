// Markdown reduced to the words a reader sees, for the search index and snippets. Code stays in
// (people search for API names) but the syntax around it goes. A step whose syntax cannot be in the
// text (no '<', no '[[', …) is skipped: finding that out costs a fraction of a pass of its expression.
export function markdownToText(body: string): string {
  let text = body
  if (text.includes('```') || text.includes('~~~')) text = text.replace(/^ {0,3}(?:`{3,}|~{3,}).*$/gm, ' ')
  // An unclosed comment hides the rest of the page, as it does when rendered (and stays linear).
  if (text.includes('<!--')) text = text.replace(/<!--[\s\S]*?(?:-->|$)/g, ' ')
  if (text.includes('<')) text = text.replace(/<\/?[A-Za-z][^<>]*>/g, ' ')
  // No '[' inside a link: a line of brackets must not make each match rescan the rest of the line.
  if (text.includes('[[')) {
    text = text.replace(/!?\[\[([^[\]|\n]*?)(?:\\?\|([^[\]\n]*))?\]\]/g, (_match, target: string, label?: string) =>
      ` ${(label ?? target).replace(/#/g, ' ')} `,
    )
  }
  if (text.includes('](')) text = text.replace(/!?\[([^[\]\n]*)\]\([^()\n]*\)/g, '$1')
  if (text.includes('#')) text = text.replace(/^ {0,3}#{1,6}[ \t]+/gm, '')
  text = text.replace(/^ {0,3}(?:[-+*]|\d{1,9}[.)])[ \t]+/gm, '')
  if (text.includes('>')) text = text.replace(/^ {0,3}>[ \t]?/gm, '')
  text = text.replace(/[*_~`|]+/g, ' ')
  if (text.includes('\\')) text = text.replace(/\\(.)/g, '$1')
  // Blanks collapse first, so no match has to rescan a long run of them. Only runs that change are
  // matched (a lone space stays, a tab or a run becomes one space; a line break loses the blanks around it).
  return text
    .replace(/[ \t]{2,}|\t/g, ' ')
    .replace(/ \n[ \n]*|\n[ \n]+/g, '\n')
    .trim()
}
