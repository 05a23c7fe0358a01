import type {
  Checkpoint,
  CheckpointPatch,
  CheckpointsResponse,
  ErrorBody,
  FileResponse,
  GraphResponse,
  LlmConnectionTest,
  LlmModelsResponse,
  LlmStatusResponse,
  LockResponse,
  PagesResponse,
  ReleaseLocksResponse,
  SearchResponse,
  WriteFileResponse,
} from '../../plugin/protocol'
import { API_PREFIX, TOKEN_HEADER, type ApiConnection } from './connection'
import { ApiError, errorCode } from './errors'

export type { ApiConnection } from './connection'
export { ApiError } from './errors'

export interface CallOptions {
  signal?: AbortSignal
}

/** Typed calls to every route of the dev-server API. */
export function createMetaBlogApi(connection: ApiConnection) {
  async function call<T>(route: string, init: RequestInit & { json?: unknown } = {}): Promise<T> {
    const headers = new Headers(init.headers)
    headers.set(TOKEN_HEADER, connection.token)
    let body = init.body
    if (init.json !== undefined) {
      headers.set('Content-Type', 'application/json')
      body = JSON.stringify(init.json)
    }
    let response: Response
    try {
      response = await fetch(`${connection.origin}${API_PREFIX}${route}`, { ...init, headers, body })
    } catch (error) {
      if ((error as Error).name === 'AbortError') throw new ApiError('ERR_ABORTED', 'The request was stopped.', 0)
      throw new ApiError('ERR_NETWORK', 'The dev server did not answer. Is `vitepress dev` still running?', 0)
    }
    const payload = (await response.json().catch(() => null)) as T | ErrorBody | null
    if (!response.ok) {
      const error = (payload as ErrorBody | null)?.error
      throw new ApiError(error?.code ?? 'ERR_INTERNAL', error?.message ?? `The dev server answered ${response.status}.`, response.status, error ?? {})
    }
    return payload as T
  }

  const queryString = (params: Record<string, string>) => `?${new URLSearchParams(params)}`
  const readFile = (path: string, options: CallOptions = {}) => call<FileResponse>(`/files${queryString({ path })}`, options)

  return {
    readFile,
    /** The page's current hash, or null when there is no such page. */
    async readHash(path: string, options: CallOptions = {}): Promise<string | null> {
      try {
        return (await readFile(path, options)).hash
      } catch (error) {
        if (errorCode(error) === 'ERR_NOT_FOUND') return null
        throw error
      }
    },
    /** Creates a page (`expectedHash: null`) or updates the version whose hash you read. */
    writeFile: (path: string, content: string, expectedHash: string | null, options: CallOptions & { taskId?: string } = {}) =>
      call<WriteFileResponse>('/files', {
        method: 'PUT',
        signal: options.signal,
        json: { path, content, taskId: options.taskId },
        headers: expectedHash === null ? { 'If-None-Match': '*' } : { 'If-Match': `"${expectedHash}"` },
      }),
    deleteFile: (path: string, expectedHash: string, options: CallOptions & { taskId?: string } = {}) =>
      call<{ path: string }>(`/files${queryString(options.taskId ? { path, taskId: options.taskId } : { path })}`, {
        method: 'DELETE',
        signal: options.signal,
        headers: { 'If-Match': `"${expectedHash}"` },
      }),
    listPages: (options: CallOptions = {}) => call<PagesResponse>('/pages', options),
    lock: (path: string, taskId: string, options: CallOptions = {}) =>
      call<LockResponse>('/locks', { method: 'POST', signal: options.signal, json: { path, taskId } }),
    releaseLocks: (taskId: string) => call<ReleaseLocksResponse>(`/locks${queryString({ taskId })}`, { method: 'DELETE' }),
    listCheckpoints: (options: CallOptions = {}) => call<CheckpointsResponse>('/checkpoints', options),
    saveCheckpoint: (checkpoint: Omit<Checkpoint, 'updatedAt'>, options: CallOptions = {}) =>
      call<{ taskId: string; updatedAt: number }>(`/checkpoints/${encodeURIComponent(checkpoint.taskId)}`, {
        method: 'PUT',
        signal: options.signal,
        json: checkpoint,
      }),
    /** Adds what changed since the saves the server holds; ERR_NOT_FOUND when it holds none. */
    appendCheckpoint: (taskId: string, patch: CheckpointPatch, options: CallOptions = {}) =>
      call<{ taskId: string; updatedAt: number }>(`/checkpoints/${encodeURIComponent(taskId)}`, { method: 'POST', signal: options.signal, json: patch }),
    deleteCheckpoint: (taskId: string) => call<{ deleted: boolean }>(`/checkpoints/${encodeURIComponent(taskId)}`, { method: 'DELETE' }),
    /** The whole graph, or with `path` that page's neighbourhood (what its backlinks draw). */
    graph: ({ path, ...options }: CallOptions & { path?: string } = {}) =>
      call<GraphResponse>(path === undefined ? '/graph' : `/graph?path=${encodeURIComponent(path)}`, options),
    search: (query: string, options: CallOptions = {}) => call<SearchResponse>(`/search${queryString({ q: query })}`, options),
    llmStatus: (options: CallOptions = {}) => call<LlmStatusResponse>('/llm/status', options),
    llmModels: (options: CallOptions = {}) => call<LlmModelsResponse>('/llm/models', options),
    llmTest: (options: CallOptions = {}) => call<LlmConnectionTest>('/llm/test', { method: 'POST', signal: options.signal, json: {} }),
  }
}

export type MetaBlogApi = ReturnType<typeof createMetaBlogApi>
