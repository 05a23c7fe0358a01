// `ollama serve` in a message shows as code, not with its backticks; the text stays plain text (never HTML).

export interface TextPart {
  text: string
  code: boolean
}

/** Splits text at backtick pairs; an unpaired backtick stays as it is. */
export function inlineCode(text: string): TextPart[] {
  const parts: TextPart[] = []
  const pattern = /`([^`\n]+)`/g
  let last = 0
  for (const match of text.matchAll(pattern)) {
    if (match.index > last) parts.push({ text: text.slice(last, match.index), code: false })
    parts.push({ text: match[1]!, code: true })
    last = match.index + match[0].length
  }
  if (last < text.length) parts.push({ text: text.slice(last), code: false })
  return parts
}
