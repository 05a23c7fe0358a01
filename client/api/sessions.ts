// Typed calls to the session-log routes. The types below are a local copy of the contract the
// server branch is adding to plugin/protocol.ts: after that merge, import them from there instead.
import { API_PREFIX, TOKEN_HEADER, type ApiConnection } from './connection'
import { ApiError } from './errors'

// --- local contract copy (swap for plugin/protocol.ts types after the sessions merge) -------------

interface EntryBase {
  v: 1
  /** ISO time the entry was made. */
  at: string
}

export type SessionEntry = EntryBase &
  (
    | { type: 'user'; text: string; currentFile?: string; mentions?: string[] }
    | { type: 'assistant'; text: string; model?: string }
    | { type: 'tool-call'; callId: string; name: string; arguments: unknown }
    | { type: 'tool-result'; callId: string; ok: boolean; summary: string }
    | { type: 'recipe'; skill: string; summary: string; paths?: string[] }
    | { type: 'compaction'; summary: string; keptFrom: number }
    | { type: 'usage'; promptTokens: number; completionTokens: number; cost?: number; model: string }
    | { type: 'meta'; mode?: string; model?: string }
  )

/** A new entry, before its version and time are stamped. */
export type SessionEntryInput = SessionEntry extends infer Entry ? (Entry extends SessionEntry ? Omit<Entry, 'v' | 'at'> : never) : never

export interface SessionSummary {
  id: string
  title: string
  createdAt: string
  updatedAt: string
  entries: number
  cost: number
}

export interface SessionsListResponse {
  sessions: SessionSummary[]
}

export interface SessionResponse {
  id: string
  entries: SessionEntry[]
  /** Lines of the log that were corrupt or cut short, skipped. */
  skipped: number
}

export interface AppendEntriesResponse {
  appended: number
}

// --- calls -----------------------------------------------------------------------------------

export type SessionsApi = ReturnType<typeof createSessionsApi>

export function createSessionsApi(connection: ApiConnection) {
  async function call<T>(route: string, init: RequestInit & { json?: unknown } = {}): Promise<T> {
    const headers = new Headers(init.headers)
    headers.set(TOKEN_HEADER, connection.token)
    if (init.json !== undefined) headers.set('Content-Type', 'application/json')
    let response: Response
    try {
      response = await fetch(`${connection.origin}${API_PREFIX}${route}`, { ...init, headers, body: init.json === undefined ? init.body : JSON.stringify(init.json) })
    } catch (error) {
      if ((error as Error).name === 'AbortError') throw new ApiError('ERR_ABORTED', 'The request was stopped.', 0)
      throw new ApiError('ERR_NETWORK', 'The dev server did not answer. Is `vitepress dev` still running?', 0)
    }
    const payload = (await response.json().catch(() => null)) as (T & { error?: { code?: string; message?: string } }) | null
    if (!response.ok) {
      const error = payload?.error
      throw new ApiError((error?.code ?? 'ERR_INTERNAL') as ApiError['code'], error?.message ?? `The dev server answered ${response.status}.`, response.status)
    }
    return payload as T
  }
  const route = (id: string) => `/sessions/${encodeURIComponent(id)}`
  return {
    append: (id: string, entries: SessionEntry[]) => call<AppendEntriesResponse>(`${route(id)}/entries`, { method: 'POST', json: { entries } }),
    list: (options: { signal?: AbortSignal } = {}) => call<SessionsListResponse>('/sessions', options),
    read: (id: string, options: { signal?: AbortSignal } = {}) => call<SessionResponse>(route(id), options),
    remove: (id: string) => call<unknown>(route(id), { method: 'DELETE' }),
  }
}
