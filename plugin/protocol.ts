// The wire contract between the dev server and the page. Imported with `import type` on both sides.

export const API_PREFIX = '/__metablog/api'
export const TOKEN_HEADER = 'x-metablog-token'
export const TOKEN_META_NAME = 'metablog-token'

export type ErrorCode =
  | 'ERR_HOST'
  | 'ERR_ORIGIN'
  | 'ERR_TOKEN'
  | 'ERR_CONTENT_TYPE'
  | 'ERR_TOO_LARGE'
  | 'ERR_BAD_JSON'
  | 'ERR_BAD_REQUEST'
  | 'ERR_BAD_PATH'
  | 'ERR_NOT_FOUND'
  | 'ERR_METHOD'
  | 'ERR_PRECONDITION_REQUIRED'
  | 'ERR_STALE'
  | 'ERR_LOCKED'
  | 'ERR_LLM_UNCONFIGURED'
  | 'ERR_LLM_AUTH'
  | 'ERR_LLM_RATE_LIMIT'
  | 'ERR_LLM_UNREACHABLE'
  | 'ERR_LLM_BAD_REQUEST'
  | 'ERR_LLM_UPSTREAM'
  | 'ERR_LLM_TIMEOUT'
  | 'ERR_INTERNAL'
  | 'ERR_UNSAFE_CONTENT'
  /** 408: the request's headers or body did not arrive within a few seconds. */
  | 'ERR_TIMEOUT'
  /** The model answered, but not with what was asked (only the outline, nothing, the prompt back), twice. */
  | 'ERR_MODEL_OUTPUT'
  /** The provider's account has no balance or quota left (402, or 429 insufficient_quota). */
  | 'ERR_LLM_QUOTA'
  /** The provider does not serve the configured model (404 model_not_found). */
  | 'ERR_LLM_MODEL'
  /** The request is longer than the model's context window. */
  | 'ERR_LLM_CONTEXT'
  /** The model cannot call tools, so the agent cannot run on it; the recipes (slash commands) still can. */
  | 'ERR_LLM_NO_TOOLS'

export interface ErrorBody {
  error: {
    code: ErrorCode
    message: string
    /** With ERR_STALE: the page's hash now; null when it was deleted. */
    currentHash?: string | null
    lockedBy?: string
    /** With ERR_UNSAFE_CONTENT: the 1-based line of the refused construct, and which construct it is. */
    line?: number
    construct?: string
  }
}

// --- files -------------------------------------------------------------------

export interface FileResponse {
  path: string
  content: string
  hash: string
}

export interface WriteFileRequest {
  path: string
  content: string
  taskId?: string
}

export interface WriteFileResponse {
  path: string
  hash: string
  /** What the server's content guard made inert before storing (the hash is of the stored text). */
  neutralized?: NeutralizedItem[]
}

/** One construct the content guard rewrote so it shows as text, on a 1-based line of the stored page. */
export interface NeutralizedItem {
  line: number
  construct: 'html' | 'script' | 'interpolation' | 'attributes' | 'script-url' | 'fence-info'
}

export interface DeleteFileResponse {
  path: string
  deleted: true
}

export interface PageSummary {
  path: string
  title: string
  hash: string
  date?: string
  tags: string[]
  description?: string
  draft: boolean
}

export interface PagesResponse {
  pages: PageSummary[]
}

// --- locks -------------------------------------------------------------------

export interface LockRequest {
  path: string
  taskId: string
}

export interface LockResponse {
  path: string
  taskId: string
  expiresAt: number
}

export interface ReleaseLocksResponse {
  released: string[]
}

// --- checkpoints ---------------------------------------------------------------

export interface CheckpointStep {
  id: string
  output?: unknown
  finishedAt: number
}

export interface Checkpoint {
  taskId: string
  skill: string
  /** What the user asked, so a resume banner can say what the task was. */
  title: string
  inputs: Record<string, unknown>
  steps: CheckpointStep[]
  /** Text streamed so far by the step that was running. */
  partial?: { stepId: string; text: string }
  /** Hashes of the pages the task read or wrote, to detect the author's edits since. */
  expectedHashes: Record<string, string>
  /**
   * Hashes of writes sent but not yet answered: if the dev server died meanwhile, the page may
   * hold this version, which the task wrote itself.
   */
  pendingHashes?: Record<string, string>
  /** Pages the task created itself. */
  createdPaths: string[]
  totalSteps: number
  updatedAt: number
  /** The browser tab running the task: an id kept per tab across reloads, so a reload may resume at once. */
  owner?: string
  /** The version of the skill's steps that saved it: another version does not resume it. */
  skillVersion?: number
  /** Results recorded inside a step (an agent's model turns and tool results), reused on resume. */
  records?: CheckpointStep[]
}

export interface CheckpointsResponse {
  checkpoints: Checkpoint[]
}

// --- llm -----------------------------------------------------------------------

/** A model's list price in US dollars per million tokens. */
export interface ModelPrice {
  input: number
  output: number
}

/** POST /llm/test: how far a one-token request got, how long it took, and the models the provider lists. */
export interface LlmConnectionTest {
  ok: boolean
  /** Where it stopped: no config, host unreachable, key refused, the model's answer, or done. */
  stage: 'config' | 'reach' | 'auth' | 'model' | 'done'
  model: string | null
  host: string | null
  latencyMs: number | null
  models: string[]
  error?: { code: ErrorCode; message: string }
}

export interface LlmStatusResponse {
  configured: boolean
  provider: string | null
  model: string | null
  baseURLHost: string | null
  /** Known prices (built-in table merged with the `llm.prices` option), keyed by lowercase model name. */
  prices: Record<string, ModelPrice>
  /** When no model is configured: the steps to configure one. */
  instructions: string | null
  /** The configured model's context window in tokens (provider preset or the `llm.models` option); null when unconfigured. */
  contextWindow?: number | null
  /** What the configured model can do, from the presets; `known` is false when the model is not in them (defaults apply). */
  capabilities?: { tools: boolean; reasoning: boolean; streamOptions: boolean; known: boolean } | null
}

// --- knowledge: graph and search ---------------------------------------------------

export interface GraphNode {
  path: string
  title: string
  tags: string[]
}

export interface GraphEdge {
  source: string
  target: string
  heading?: string
}

export interface UnresolvedLink {
  source: string
  target: string
  /** Set for an embed or link of a missing attachment (`![[chart.png]]`); absent for a missing page. */
  kind?: 'attachment'
}

export interface GraphResponse {
  nodes: GraphNode[]
  edges: GraphEdge[]
  unresolved: UnresolvedLink[]
}

export interface SearchResult {
  path: string
  title: string
  score: number
  snippet: string
}

export interface SearchResponse {
  results: SearchResult[]
}

// --- events: server → page (Vite custom HMR events) --------------------------------

export type FileChangeKind = 'created' | 'updated' | 'deleted'

export interface FileChangedPayload {
  path: string
  kind: FileChangeKind
  hash: string | null
  title: string | null
}

export interface GraphUpdatedPayload {
  paths: string[]
}

export interface SidebarUpdatedPayload {
  paths: string[]
}

/** Every custom HMR event MetaBlog sends, by name; `sendEvent` and `onServerEvent` are typed by it. */
export interface MetaBlogEventMap {
  'metablog:file-changed': FileChangedPayload
  'metablog:graph-updated': GraphUpdatedPayload
  'metablog:sidebar-updated': SidebarUpdatedPayload
}
