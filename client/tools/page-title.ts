/** A page's title as its source says it: front-matter `title:`, else the first `# ` heading, else the file name. */
export function pageTitle(content: string, path: string): string {
  const front = /^---\r?\n([\s\S]*?)\r?\n---/.exec(content)?.[1]
  const fromFront = front && /^title:[ \t]*(.+)$/m.exec(front)?.[1]?.trim().replace(/^(["'])(.*)\1$/, '$2')
  if (fromFront) return fromFront
  const heading = /^#[ \t]+(.+)$/m.exec(content)?.[1]?.trim()
  return heading || (path.split('/').pop() ?? path).replace(/\.md$/, '')
}
