// Models wrap JSON in fences, put prose around it, or leave trailing commas; a schema check decides what counts.
import type { ModelPort, ModelRequest } from '../types'
import { splitReasoning } from './think-filter'

const FENCE = /(`{3,}|~{3,})[ \t]*(?:json5?|javascript|js)?[ \t]*\n([\s\S]*?)\n[ \t]*\1/gi

function parse(text: string): unknown {
  try {
    return JSON.parse(text)
  } catch {
    // Trailing commas are the commonest slip; strings are not touched by this pattern often enough to matter.
    try {
      return JSON.parse(text.replace(/,\s*([}\]])/g, '$1'))
    } catch {
      return undefined
    }
  }
}

/** The first balanced {…} or […] from `start`, skipping brackets inside strings. */
function balancedFrom(text: string, start: number): string | null {
  const stack: string[] = []
  let inString = false
  for (let index = start; index < text.length; index++) {
    const character = text[index]!
    if (inString) {
      if (character === '\\') index++
      else if (character === '"') inString = false
      continue
    }
    if (character === '"') inString = true
    else if (character === '{' || character === '[') stack.push(character === '{' ? '}' : ']')
    else if (character === '}' || character === ']') {
      if (stack.pop() !== character) return null
      if (stack.length === 0) return text.slice(start, index + 1)
    }
  }
  return null
}

/** Every JSON value an answer may hold, most likely first: fenced blocks, the whole text, then bracketed runs in prose. */
export function jsonCandidates(answer: string): unknown[] {
  const text = splitReasoning(answer).text
  const values: unknown[] = []
  const add = (candidate: string | null) => {
    const value = candidate === null ? undefined : parse(candidate.trim())
    if (value !== undefined) values.push(value)
  }
  for (const match of text.matchAll(FENCE)) add(match[2]!)
  add(text)
  for (let index = 0; index < text.length && values.length < 8; index++) {
    if (text[index] === '{' || text[index] === '[') {
      const run = balancedFrom(text, index)
      if (run) {
        add(run)
        index += run.length - 1
      }
    }
  }
  return values
}

/** The first candidate the check accepts (it returns the typed value, or null). */
export function extractJson<T>(answer: string, check: (value: unknown) => T | null): T | null {
  for (const value of jsonCandidates(answer)) {
    const checked = check(value)
    if (checked !== null) return checked
  }
  return null
}

export interface JsonAnswer<T> {
  value: T
  /** 1 when the first answer fit, 2 after the repair request, 0 when the fallback was used. */
  attempts: 0 | 1 | 2
}

/**
 * Asks for JSON, checks it, and on a bad answer asks ONCE more with the answer and what was wrong;
 * a second bad answer gives the fallback, so a chatty model costs at most one extra call.
 */
export async function askJson<T>(model: ModelPort, request: ModelRequest, options: { check: (value: unknown) => T | null; shape: string; fallback: T }): Promise<JsonAnswer<T>> {
  const first = await model.complete(request)
  const value = extractJson(first, options.check)
  if (value !== null) return { value, attempts: 1 }
  const repair = await model.complete({
    ...request,
    temperature: 0,
    messages: [
      ...request.messages,
      { role: 'assistant', content: first.slice(0, 4000) },
      { role: 'user', content: `That was not the JSON asked for. Answer again with only this JSON and nothing else (no prose, no code fence): ${options.shape}` },
    ],
  })
  const repaired = extractJson(repair, options.check)
  return repaired !== null ? { value: repaired, attempts: 2 } : { value: options.fallback, attempts: 0 }
}
