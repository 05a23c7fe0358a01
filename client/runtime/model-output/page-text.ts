// Chat models talk around the text they were asked for; a page gets only the text.

/** "Sure! Here's the outline:", "Certainly. Below is the post.", "好的，以下是文章：" */
const PREAMBLE = /^(?:(?:sure|certainly|of course|absolutely|okay|ok|great|alright|no problem)\b|here(?:'s|’s| is| are)\b|below (?:is|are)\b|i(?:'ve| have) (?:written|drafted|prepared|created)\b|as requested\b|好的|当然|没问题|以下是|下面是)/i

/** "Let me know if…", "I hope this helps!", "Feel free to…", "希望这篇文章…" */
const SIGN_OFF = /^(?:let me know\b|i hope\b|hope this\b|feel free\b|if you(?:'d| would)? (?:like|want|need)\b|would you like\b|i(?:'d| would) be happy\b|happy (?:writing|blogging)\b|enjoy\b|希望|如果你|如需|如有)/i

const WHOLE_FENCE = /^(`{3,}|~{3,})[ \t]*(?:markdown|md)?[ \t]*\n([\s\S]*?)\n\1[ \t]*$/i
/** Front matter a model put in a code fence at the top: ```yaml\n---\ntitle: …\n---\n``` */
const FENCED_FRONT_MATTER = /^(`{3,}|~{3,})[ \t]*(?:ya?ml|toml|front-?matter)?[ \t]*\n(?:---\n)?((?:[A-Za-z_][\w-]*[ \t]*:.*\n|[ \t]+.*\n|-[ \t].*\n)+)(?:---\n)?\1[ \t]*(?:\n|$)/i
/** `**Title:** X`, `Title: X`, `# Title: X`, `**Title: X**` → `# X` */
const TITLE_LINE = /^(?:#{1,2}[ \t]+)?(?:\*\*|__)?(?:title|标题)[ \t]*[:：][ \t]*(?:\*\*|__)?[ \t]*(.+?)[ \t]*(?:\*\*|__)?[ \t]*$/i

function isChatter(paragraph: string, pattern: RegExp): boolean {
  const line = paragraph.trim()
  // Short, not a heading, list or fence: one conversational sentence or two.
  return line.length > 0 && line.length <= 240 && !/^(?:#|[-*+>|]|`{3}|~{3}|\d+\.)/.test(line) && pattern.test(line.replace(/^\*+|^_+/, ''))
}

function dropLeading(text: string): string {
  for (let count = 0; count < 2; count++) {
    const match = /^[^\n]*(?:\n|$)/.exec(text)!
    if (!isChatter(match[0], PREAMBLE)) break
    text = text.slice(match[0].length).replace(/^\s*(?:(?:-{3,}|\*{3,})[ \t]*\n)?\s*/, '')
  }
  return text
}

function dropTrailing(text: string): string {
  for (let count = 0; count < 2; count++) {
    const paragraphs = text.trimEnd().split(/\n[ \t]*\n/)
    const last = paragraphs.at(-1) ?? ''
    if (paragraphs.length < 2 || !isChatter(last, SIGN_OFF)) break
    text = paragraphs.slice(0, -1).join('\n\n').replace(/\n(?:-{3,}|\*{3,})[ \t]*$/, '').trimEnd()
  }
  return text
}

function unwrap(text: string): string {
  const whole = WHOLE_FENCE.exec(text.trimEnd())
  return whole ? whole[2]!.trim() : text
}

/** The title line a model wrote in one of its forms, as a Markdown heading; other lines as they are. */
export function normaliseTitleLine(text: string): string {
  const [first = '', ...rest] = text.split('\n')
  const title = TITLE_LINE.exec(first.trim())
  return title ? [`# ${title[1]!.replace(/^["“]|["”]$/g, '')}`, ...rest].join('\n') : text
}

/**
 * The page text in a model's answer: no preamble or sign-off, no fence around the whole answer or
 * around its front matter, the title as a heading. Idempotent, so live saves and the final save agree.
 */
export function cleanPageText(answer: string): string {
  // The end is left as it is: a live save of a growing draft keeps its last space.
  let text = answer.replace(/\r\n/g, '\n').trimStart()
  text = dropLeading(text)
  text = unwrap(text)
  text = dropTrailing(text)
  text = unwrap(text)
  text = dropLeading(text)
  text = text.replace(FENCED_FRONT_MATTER, '').trimStart()
  return normaliseTitleLine(text)
}

/** The title in an outline or post, in any of the forms models use, or ''. */
export function titleOf(answer: string): string {
  const text = cleanPageText(answer)
  return /^#[ \t]+(.+)$/m.exec(text)?.[1]?.trim() ?? /^\*\*(.+)\*\*$/m.exec(text)?.[1]?.trim() ?? ''
}
