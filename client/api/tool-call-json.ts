import { isRecord } from '../is-record'

export type ParsedArguments =
  | { ok: true; value: Record<string, unknown>; repaired: boolean }
  | { ok: false; error: string }

const CONTROL_ESCAPES: Record<string, string> = { '\n': '\\n', '\r': '\\r', '\t': '\\t', '\b': '\\b', '\f': '\\f' }

/**
 * Follows JSON string boundaries a character at a time: `step` is true for a character inside a
 * string (quotes included); `escaped` tells whether that character followed a backslash.
 */
function createStringTracker() {
  let pendingEscape = false
  const tracker = {
    inString: false,
    escaped: false,
    step(character: string): boolean {
      tracker.escaped = false
      if (!tracker.inString) {
        tracker.inString = character === '"'
        return tracker.inString
      }
      if (pendingEscape) {
        pendingEscape = false
        tracker.escaped = true
      } else if (character === '\\') pendingEscape = true
      else if (character === '"') tracker.inString = false
      return true
    },
  }
  return tracker
}

function tryParse(text: string): { value: unknown } | null {
  try {
    return { value: JSON.parse(text) }
  } catch {
    return null
  }
}

/**
 * Escapes raw control characters inside strings (models often put real newlines in Markdown
 * arguments) and drops trailing commas before a closing bracket. Neither changes meaning.
 */
function tidy(text: string): string {
  let out = ''
  const strings = createStringTracker()
  for (let index = 0; index < text.length; index++) {
    const character = text[index]!
    if (strings.step(character)) {
      out += character < ' ' && !strings.escaped ? (CONTROL_ESCAPES[character] ?? `\\u${character.charCodeAt(0).toString(16).padStart(4, '0')}`) : character
      continue
    }
    if (character === ',') {
      const next = text.slice(index + 1).trimStart()[0]
      if (next === '}' || next === ']') continue
    }
    out += character
  }
  return out
}

/** Splits `{…}{…}` into its top-level values; null when the text is not a run of whole values. */
function topLevelValues(text: string): string[] | null {
  const values: string[] = []
  let depth = 0
  let start = -1
  const strings = createStringTracker()
  for (let index = 0; index < text.length; index++) {
    const character = text[index]!
    if (strings.step(character)) continue
    if (character === '{' || character === '[') {
      if (depth === 0) start = index
      depth++
    } else if (character === '}' || character === ']') {
      depth--
      if (depth < 0) return null
      if (depth === 0) values.push(text.slice(start, index + 1))
    } else if (depth === 0 && !/\s/.test(character)) return null
  }
  return depth === 0 && !strings.inString ? values : null
}

/**
 * Tool-call arguments as an object, repairing only what has one possible meaning: code fences,
 * raw newlines in strings, trailing commas, double-encoded JSON, and `{}` or a repeat glued
 * before the real object. Truncated JSON is never "completed": a cut-off argument is an error.
 */
export function parseToolArguments(text: string): ParsedArguments {
  const trimmed = text.trim()
  if (trimmed === '') return { ok: true, value: {}, repaired: false }
  const direct = tryParse(trimmed)
  if (direct && isRecord(direct.value)) return { ok: true, value: direct.value, repaired: false }
  if (direct && typeof direct.value === 'string') {
    const inner = tryParse(direct.value)
    if (inner && isRecord(inner.value)) return { ok: true, value: inner.value, repaired: true }
  }
  if (direct) return { ok: false, error: 'The tool arguments are JSON but not an object.' }

  const unfenced = /^```(?:json)?\s*([\s\S]*?)\s*```$/i.exec(trimmed)?.[1] ?? trimmed
  const tidied = tidy(unfenced)
  const repaired = tryParse(tidied)
  if (repaired && isRecord(repaired.value)) return { ok: true, value: repaired.value, repaired: true }

  const parts = topLevelValues(tidied)?.map((part) => tryParse(part)?.value)
  if (parts && parts.length > 1 && parts.every(isRecord)) {
    const distinct = [...new Set(parts.filter((part) => Object.keys(part).length > 0).map((part) => JSON.stringify(part)))]
    if (distinct.length === 1) return { ok: true, value: JSON.parse(distinct[0]!) as Record<string, unknown>, repaired: true }
  }
  return { ok: false, error: `The tool arguments are not valid JSON and cannot be safely repaired: ${trimmed.slice(0, 120)}` }
}
