// Markdown reduced to the words a reader sees, for the search index and snippets. Code stays in
// (people search for API names) but the syntax around it goes.
export function markdownToText(body: string): string {
  return body
    .replace(/^ {0,3}(?:`{3,}|~{3,}).*$/gm, ' ')
    // An unclosed comment hides the rest of the page, as it does when rendered (and stays linear).
    .replace(/<!--[\s\S]*?(?:-->|$)/g, ' ')
    .replace(/<\/?[A-Za-z][^<>]*>/g, ' ')
    // No '[' inside a link: a line of brackets must not make each match rescan the rest of the line.
    .replace(/!?\[\[([^[\]|\n]*?)(?:\\?\|([^[\]\n]*))?\]\]/g, (_match, target: string, label?: string) =>
      ` ${(label ?? target).replace(/#/g, ' ')} `,
    )
    .replace(/!?\[([^[\]\n]*)\]\([^()\n]*\)/g, '$1')
    .replace(/^ {0,3}#{1,6}[ \t]+/gm, '')
    .replace(/^ {0,3}(?:[-+*]|\d{1,9}[.)])[ \t]+/gm, '')
    .replace(/^ {0,3}>[ \t]?/gm, '')
    .replace(/[*_~`|]+/g, ' ')
    .replace(/\\(.)/g, '$1')
    // Blanks collapse first, so no match has to rescan a long run of them.
    .replace(/[ \t]+/g, ' ')
    .replace(/ ?\n[ \n]*/g, '\n')
    .trim()
}
