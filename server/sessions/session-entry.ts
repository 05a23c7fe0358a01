import type { SessionEntry, SessionEntryType } from '../../plugin/protocol.js'
import { MetaBlogError } from '../errors.js'

export const SESSION_ID = /^[A-Za-z0-9_-]{1,100}$/
// An ISO 8601 date-time as Date#toISOString writes it, with or without milliseconds, in UTC or with an offset.
const ISO_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d{1,9})?(?:Z|[+-]\d{2}:\d{2})$/
const MODES = new Set(['ask', 'plan', 'auto-edit'])

type Fields = Record<string, unknown>
type Check = (entry: Fields, where: string) => void

export function checkSessionId(id: unknown): string {
  if (typeof id !== 'string' || !SESSION_ID.test(id)) {
    throw new MetaBlogError('ERR_BAD_REQUEST', 'A session id must be 1–100 letters, digits, "-" or "_".')
  }
  return id
}

function fail(where: string, message: string): never {
  throw new MetaBlogError('ERR_BAD_REQUEST', `${where}: ${message}`)
}

function text(name: string, optional = false): Check {
  return (entry, where) => {
    const value = entry[name]
    if (optional && value === undefined) return
    if (typeof value !== 'string') fail(where, `"${name}" must be a string.`)
  }
}

function textList(name: string): Check {
  return (entry, where) => {
    const value = entry[name]
    if (value === undefined) return
    if (!Array.isArray(value) || !value.every((item) => typeof item === 'string')) fail(where, `"${name}" must be a list of strings.`)
  }
}

function count(name: string, optional = false, whole = true): Check {
  return (entry, where) => {
    const value = entry[name]
    if (optional && value === undefined) return
    if (typeof value !== 'number' || !Number.isFinite(value) || value < 0 || (whole && !Number.isInteger(value))) {
      fail(where, `"${name}" must be a ${whole ? 'whole ' : ''}number ≥ 0.`)
    }
  }
}

const present: Check = (entry, where) => {
  if (entry.arguments === undefined) fail(where, '"arguments" is required (the JSON string the model sent, or its parsed value).')
}

const flag: Check = (entry, where) => {
  if (typeof entry.ok !== 'boolean') fail(where, '"ok" must be true or false.')
}

const mode: Check = (entry, where) => {
  if (entry.mode !== undefined && !MODES.has(entry.mode as string)) fail(where, '"mode" must be "ask", "plan" or "auto-edit".')
}

/** The fields each entry type needs, beyond `v`, `at` and `type`. Other fields are kept as they are. */
const CHECKS: Record<SessionEntryType, Check[]> = {
  user: [text('text'), text('currentFile', true), textList('mentions')],
  assistant: [text('text'), text('model', true)],
  'tool-call': [text('callId'), text('name'), present],
  'tool-result': [text('callId'), flag, text('summary')],
  recipe: [text('skill'), text('summary'), textList('paths')],
  compaction: [text('summary'), count('keptFrom')],
  usage: [count('promptTokens'), count('completionTokens'), count('cost', true, false), text('model')],
  meta: [mode, text('model', true)],
}

/** Checks one entry's shape; `where` names it in the error ("entries[3]"). */
export function checkSessionEntry(value: unknown, where = 'entry'): SessionEntry {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) fail(where, 'must be a JSON object.')
  const entry = value as Fields
  if (entry.v !== 1) fail(where, '"v" must be 1 (the log format version).')
  if (typeof entry.at !== 'string' || !ISO_TIME.test(entry.at) || Number.isNaN(Date.parse(entry.at))) {
    fail(where, '"at" must be an ISO time such as new Date().toISOString() gives.')
  }
  const type = entry.type
  if (typeof type !== 'string' || !Object.hasOwn(CHECKS, type)) {
    fail(where, `"type" must be one of ${Object.keys(CHECKS).join(', ')}.`)
  }
  for (const check of CHECKS[type as SessionEntryType]) check(entry, `${where} (${type})`)
  return entry as unknown as SessionEntry
}

/** The `entries` of an append request: a non-empty list of valid entries, at most `limit`. */
export function checkSessionEntries(body: unknown, limit = 1000): SessionEntry[] {
  const entries = (body as { entries?: unknown } | null)?.entries
  if (!Array.isArray(entries) || entries.length === 0) {
    throw new MetaBlogError('ERR_BAD_REQUEST', 'The JSON body needs "entries": a non-empty list of session entries.')
  }
  if (entries.length > limit) {
    throw new MetaBlogError('ERR_BAD_REQUEST', `At most ${limit} entries per request; send the rest in another request.`)
  }
  return entries.map((entry, index) => checkSessionEntry(entry, `entries[${index}]`))
}
