// A small model may answer with only the outline, nothing, or the prompt back: that is not a post.

export type StructureProblem = 'empty' | 'outline-only' | 'prompt-echo' | 'no-headings'

const DESCRIPTIONS: Record<StructureProblem, string> = {
  'empty': 'an empty answer',
  'outline-only': 'only the outline, not the post',
  'prompt-echo': 'my instructions repeated back',
  'no-headings': 'a post without the outline’s section headings',
}

export function describeProblem(problem: StructureProblem): string {
  return DESCRIPTIONS[problem]
}

/** A line reduced to its words, so "## 1. What an ETag is" and "- What an ETag is" compare equal. */
function normalLine(line: string): string {
  return line.toLowerCase().replace(/^[\s#>*+-]*(?:\d+[.)]\s*)?/, '').replace(/[*_`:：.。!?"'“”]/g, '').replace(/\s+/g, ' ').trim()
}

function lines(text: string): string[] {
  return text.split('\n').map(normalLine).filter(Boolean)
}

function wordCount(text: string): number {
  return (text.match(/[\p{L}\p{N}]+/gu) ?? []).reduce((sum, word) => sum + (/\p{Script=Han}/u.test(word) ? word.length : 1), 0)
}

function share(body: string[], reference: ReadonlySet<string>): number {
  return body.length ? body.filter((line) => reference.has(line)).length / body.length : 0
}

/**
 * What is wrong with a drafted post, if anything: empty (no prose at all), mostly lines of the
 * outline, mostly lines of the prompt, or — for a long post — none of the outline's `##` sections.
 */
export function checkArticle(body: string, outline: string, prompt: string): StructureProblem | null {
  const prose = body.split('\n').filter((line) => line.trim() && !/^\s*#/.test(line)).join('\n')
  if (wordCount(prose) === 0) return 'empty'
  const bodyLines = lines(body)
  const outlineLines = new Set(lines(outline))
  if (share(bodyLines, outlineLines) >= 0.8) return 'outline-only'
  // The prompt carries the outline too: only the lines the outline does not explain count as an echo.
  const own = bodyLines.filter((line) => !outlineLines.has(line))
  if (share(own, new Set(lines(prompt))) >= 0.6) return 'prompt-echo'
  const sections = outline.split('\n').filter((line) => /^##\s/.test(line)).length
  if (sections >= 2 && !/^##\s/m.test(body) && wordCount(prose) >= 200) return 'no-headings'
  return null
}
