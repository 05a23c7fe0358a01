// Where "Insert into page" puts a reply: after the paragraph holding the author's selection, or at the end.

/** After the paragraph that holds `selection` (if it is in the source exactly once), else the end of the page. */
export function insertionPoint(content: string, selection: string | null): number {
  const wanted = selection?.trim()
  if (wanted) {
    const at = content.indexOf(wanted)
    if (at !== -1 && content.indexOf(wanted, at + 1) === -1) {
      const paragraphEnd = content.indexOf('\n\n', at + wanted.length)
      return paragraphEnd === -1 ? content.length : paragraphEnd
    }
  }
  return content.length
}

/** `text` as its own paragraph at `at`, with one blank line on each side. */
export function insertAt(content: string, at: number, text: string): string {
  const head = content.slice(0, at).replace(/\s+$/, '')
  const tail = content.slice(at).replace(/^\s+/, '')
  const block = text.trim()
  if (head === '') return tail ? `${block}\n\n${tail}` : `${block}\n`
  return tail ? `${head}\n\n${block}\n\n${tail}` : `${head}\n\n${block}\n`
}
