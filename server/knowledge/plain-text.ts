// Markdown reduced to the words a reader sees, for the search index and snippets. Code stays in
// (people search for API names) but the syntax around it goes.
export function markdownToText(body: string): string {
  return body
    .replace(/^ {0,3}(?:`{3,}|~{3,}).*$/gm, ' ')
    .replace(/<!--[\s\S]*?-->/g, ' ')
    .replace(/<\/?[A-Za-z][^<>]*>/g, ' ')
    .replace(/!?\[\[([^\]|\n]*?)(?:\\?\|([^\]\n]*))?\]\]/g, (_match, target: string, label?: string) =>
      ` ${(label ?? target).replace(/#/g, ' ')} `,
    )
    .replace(/!?\[([^\]\n]*)\]\([^)\n]*\)/g, '$1')
    .replace(/^ {0,3}#{1,6}[ \t]+/gm, '')
    .replace(/^ {0,3}(?:[-+*]|\d{1,9}[.)])[ \t]+/gm, '')
    .replace(/^ {0,3}>[ \t]?/gm, '')
    .replace(/[*_~`|]+/g, ' ')
    .replace(/\\(.)/g, '$1')
    .replace(/[ \t]*\n[ \t\n]*/g, '\n')
    .replace(/[ \t]{2,}/g, ' ')
    .trim()
}
