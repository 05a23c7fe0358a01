// Typed calls to the session-log routes; the types and the JSONL format are in plugin/protocol.ts.
import { API_PREFIX, TOKEN_HEADER, type ApiConnection } from './connection'
import { ApiError } from './errors'

import type { AppendSessionEntriesResponse, SessionEntry, SessionResponse, SessionsResponse } from '../../plugin/protocol'

export type { SessionEntry, SessionResponse, SessionSummary } from '../../plugin/protocol'
export type SessionsListResponse = SessionsResponse
export type AppendEntriesResponse = AppendSessionEntriesResponse

/** A new entry, before its version and time are stamped. */
export type SessionEntryInput = SessionEntry extends infer Entry ? (Entry extends SessionEntry ? Omit<Entry, 'v' | 'at'> : never) : never

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
