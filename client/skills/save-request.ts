// Whether a summarize request also asks to store the summary as the page's description.

const SAVE_WORDS = /\b(?:save|saved|store|descriptions?)\b|保存|存为|描述/i
// "… and save it as the description", "，并保存为描述": the clause, up to the end of the phrase.
const SAVE_CLAUSE = /[\s,，;；]*(?:\b(?:and|then)\b\s*|&\s*|并且?|然后|再)?(?:\b(?:save|store)\b|保存|存为|\b(?:as|into)\s+(?:(?:a|an|the|its|my)\s+)?(?:page\s+)?description\b|作为描述).*$/iu

/** True when the request's words ask to save: "save", "description", "保存", "描述". */
export function wantsSavedDescription(...texts: (string | undefined)[]): boolean {
  return texts.some((text) => text !== undefined && SAVE_WORDS.test(text))
}

/** A page phrase without the save clause: "this post and save it as the description" → "this post". */
export function withoutSaveClause(phrase: string): string {
  return phrase.replace(SAVE_CLAUSE, '').trim()
}
