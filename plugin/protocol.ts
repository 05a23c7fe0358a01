// The wire contract between the dev server and the page. Imported with `import type` on both sides.
import type { DefaultTheme } from 'vitepress'
import type { PackedSection } from '../server/knowledge/sidebar-packing.js'

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
  /** The request named a model the author did not configure and the provider does not list (a page may not pick any model on the author's key). */
  | 'ERR_LLM_MODEL_NOT_ALLOWED'

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

/**
 * POST /checkpoints/:taskId: what changed since the saves the server already holds, appended to the
 * checkpoint so a long task does not resend its whole history each step. `steps` and `records`
 * continue the server's lists at `base` (a resent patch lands on the same places); the other fields
 * replace their saved values. 404 ERR_NOT_FOUND when there is no checkpoint to append to (send it whole).
 */
export interface CheckpointPatch {
  base: { steps: number; records: number }
  steps: CheckpointStep[]
  records: CheckpointStep[]
  partial?: Checkpoint['partial'] | null
  expectedHashes?: Record<string, string>
  pendingHashes?: Record<string, string>
  createdPaths?: string[]
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

/** GET /llm/models: the models the picker offers, the configured one first; `listed` is false when the provider could not list them. */
export interface LlmModelsResponse {
  models: string[]
  current: string | null
  listed: boolean
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
  /** Set while the dev server is still building its search index: the results cover `indexed` of `total` pages. */
  partial?: true
  indexed?: number
  total?: number
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
  /** The generated sidebar's sections that changed, by key (VitePress's multi-sidebar); null: the section is gone. */
  sections?: Record<string, DefaultTheme.SidebarItem[] | null>
  /** The whole sidebar, when it is not one section per folder (the author's own, merged). */
  sidebar?: DefaultTheme.Sidebar
}

/** Every custom HMR event MetaBlog sends, by name; `sendEvent` and `onServerEvent` are typed by it. */
export interface MetaBlogEventMap {
  'metablog:file-changed': FileChangedPayload
  'metablog:graph-updated': GraphUpdatedPayload
  'metablog:sidebar-updated': SidebarUpdatedPayload
  'metablog:prompts-updated': PromptsUpdatedPayload
}

/** A prompt file was added, changed or removed: fetch GET /prompts again. */
export interface PromptsUpdatedPayload {
  /** The changed files, relative to the prompts folder, with `/`. */
  files: string[]
}

// --- sessions: one append-only JSONL log per conversation ------------------------------
//
// File format: `.vitepress/cache/metablog/sessions/<sessionId>.jsonl`, UTF-8, one SessionEntry as
// JSON per line, each line ended by "\n", in the order they were appended. Files are only ever
// appended to (POST /sessions/:id/entries) or deleted. A crash may leave a torn last line: readers
// skip any line that is not a valid entry (counted in `skipped`) and go on.

/** Every entry type a session log holds. */
export type SessionEntryType = 'user' | 'assistant' | 'tool-call' | 'tool-result' | 'recipe' | 'compaction' | 'usage' | 'meta'

interface SessionEntryBase {
  /** Format version; always 1 today. */
  v: 1
  /** When it happened, an ISO 8601 time such as new Date().toISOString() gives. */
  at: string
}

/** The author's message, with the page open at the time and the pages they @-mentioned. */
export interface UserEntry extends SessionEntryBase {
  type: 'user'
  text: string
  currentFile?: string
  mentions?: string[]
}

export interface AssistantEntry extends SessionEntryBase {
  type: 'assistant'
  text: string
  model?: string
}

/** A tool call the model made; `arguments` as the model sent them (usually a JSON string). */
export interface ToolCallEntry extends SessionEntryBase {
  type: 'tool-call'
  callId: string
  name: string
  arguments: unknown
}

/** What a tool call gave back, in short. */
export interface ToolResultEntry extends SessionEntryBase {
  type: 'tool-result'
  callId: string
  ok: boolean
  summary: string
}

/** What a recipe (skill) produced: a drafted post, an accepted edit. */
export interface RecipeEntry extends SessionEntryBase {
  type: 'recipe'
  skill: string
  summary: string
  paths?: string[]
}

/** Older turns summarised into one message; entries from index `keptFrom` on stay verbatim. */
export interface CompactionEntry extends SessionEntryBase {
  type: 'compaction'
  summary: string
  keptFrom: number
}

/** Tokens and cost (US dollars) of one model request. */
export interface UsageEntry extends SessionEntryBase {
  type: 'usage'
  promptTokens: number
  completionTokens: number
  cost?: number
  model: string
}

/** Settings of the conversation from here on. */
export interface MetaEntry extends SessionEntryBase {
  type: 'meta'
  mode?: PromptMode
  model?: string
}

export type SessionEntry =
  | UserEntry
  | AssistantEntry
  | ToolCallEntry
  | ToolResultEntry
  | RecipeEntry
  | CompactionEntry
  | UsageEntry
  | MetaEntry

/** POST /sessions/:id/entries — ids are 1–100 letters, digits, "-" or "_". */
export interface AppendSessionEntriesRequest {
  entries: SessionEntry[]
}

export interface AppendSessionEntriesResponse {
  id: string
  appended: number
  /** The log's size in bytes after the append (the cap is 20 MiB: past it, start a new conversation). */
  size: number
}

export interface SessionSummary {
  id: string
  /** The first user message, trimmed (empty when there is none yet). */
  title: string
  /** `at` of the first and last valid entries (the file's time when it holds none). */
  createdAt: string
  updatedAt: string
  /** How many valid entries the log holds. */
  entries: number
  /** Sum of the usage entries' cost, in US dollars. */
  cost: number
}

/** GET /sessions, newest (updatedAt) first. */
export interface SessionsResponse {
  sessions: SessionSummary[]
}

/** GET /sessions/:id; 404 ERR_NOT_FOUND when there is no such log. */
export interface SessionResponse {
  id: string
  entries: SessionEntry[]
  /** Lines that were not valid entries (torn by a crash, corrupt) and were left out. */
  skipped: number
}

export interface DeleteSessionResponse {
  id: string
  deleted: boolean
}

// --- prompts: slash commands defined as Markdown files ----------------------------------

/** The agent's tool names, which a prompt's `tools` allow-list may name. */
export const AGENT_TOOL_NAMES = ['search_pages', 'list_pages', 'read_page', 'get_links', 'edit_page', 'create_page', 'delete_page'] as const
export type AgentToolName = (typeof AGENT_TOOL_NAMES)[number]
export type PromptMode = 'ask' | 'plan' | 'auto-edit'

/**
 * One prompt file (`<promptsDir>/*.md`): YAML front matter `command`, `description`, optional
 * `mode` and `tools`; the body is the template, with `{{input}}`, `{{selection}}` and `{{page}}`.
 */
export interface PromptDefinition {
  /** The slash name without "/", matching /^[a-z][a-z0-9-]*$/. */
  command: string
  description: string
  mode?: PromptMode
  /** Only these tools may be offered to the model; absent means the mode's usual tools. */
  tools?: AgentToolName[]
  template: string
  /** The file, relative to the prompts folder, with `/`. */
  file: string
}

export interface PromptProblem {
  file: string
  message: string
}

/** GET /prompts: the valid prompts, sorted by command, and one problem per file that was left out. */
export interface PromptsResponse {
  prompts: PromptDefinition[]
  problems: PromptProblem[]
}

/** The words of the backlinks block under a page. */
export interface BacklinkLabels {
  /** The block's heading. */
  title: string
  /** Shown in dev when no page links here. */
  empty: string
  /** Before the list (dev only) of links from this page to pages that don't exist yet. */
  unresolved: string
}

/** The `backlinks` option as it reaches the page. */
export interface BacklinksSetting {
  enabled: boolean
  /** The heading is a real `<h2>` that the outline lists. */
  outline: boolean
  /** Labels by page language ('en', 'zh', 'zh-CN', …), over the built-in English and Chinese. */
  labels: Record<string, Partial<BacklinkLabels>>
}

// --- what a production build ships for the reading features ----------------------

/**
 * The whole graph as the graph page fetches it in a build (a JSON asset): a node table, and edges
 * and unresolved links that point into it by index.
 */
export interface CompactGraph {
  /** [path, title, tags] */
  nodes: [string, string, string[]][]
  /** [source index, target index, heading?] */
  edges: ([number, number] | [number, number, string])[]
  /** [source index, target, 'attachment'?] */
  unresolved: ([number, string] | [number, string, 'attachment'])[]
}

/**
 * What a build adds to one page's own data (`page.metablog`, shipped as `shipPageKnowledge` makes it),
 * instead of shipping the whole site to every page.
 */
export interface PageKnowledge {
  /** The page's section of the generated sidebar (windowed): its multi-sidebar key and items, packed (server/knowledge/sidebar-packing.ts). */
  sidebar?: PackedSection
  /** The page and the pages within one link of it, when another page links here. */
  links?: PageLinks
}

/**
 * A page's neighbourhood in its own build data: only what "Linked from" and the local graph draw
 * (no tags, headings or unresolved links), paths and titles once, links as index pairs.
 */
export interface PageLinks {
  /** [path, title] of the page and its neighbours, in the whole graph's order */
  nodes: [string, string][]
  /** [source index, target index] among them, in the whole graph's order */
  edges: [number, number][]
}

/**
 * In dev, a long folder's full sidebar list, for its "More" entry: `GET ${DEV_SIDEBAR_PATH}?folder=posts/deep`
 * → `[[text, link], …]` (a build ships the same list as a JSON asset). Outside the API: it needs no token,
 * like the page data it completes; 404 ERR_NOT_FOUND for a folder the generated sidebar does not have.
 */
export const DEV_SIDEBAR_PATH = '/@metablog/sidebar.json'

/** Swaps `"` and `` ` ``: its own inverse. */
const swapQuotes = (text: string): string => text.replace(/["`]/g, (quote) => (quote === '"' ? '`' : '"'))

/**
 * `page.metablog` as a page carries it: PageKnowledge's JSON with `"` and `` ` `` swapped, as one
 * string. VitePress ships page data as JSON inside a JavaScript string literal, so every `"` in it is
 * escaped, and Vue's SFC compiler (Babel) keeps such a literal as two string pieces per escape in the
 * AST it holds for every page through a build: ~15 KB of heap a page for ~1.4 KB of sidebar and links.
 * A backquote needs no escape in either kind of string literal, and is rare in paths and titles.
 */
export function shipPageKnowledge(knowledge: PageKnowledge): string {
  return swapQuotes(JSON.stringify(knowledge))
}

let lastShipped: string | undefined
let lastKnowledge: PageKnowledge | undefined

/** A page's `metablog` data read back (see shipPageKnowledge); undefined when the page has none. The last one read is kept: each page render reads it twice. */
export function pageKnowledgeOf(page: object): PageKnowledge | undefined {
  const shipped = (page as { metablog?: unknown }).metablog
  if (typeof shipped !== 'string') return undefined
  if (shipped !== lastShipped) [lastShipped, lastKnowledge] = [shipped, JSON.parse(swapQuotes(shipped)) as PageKnowledge]
  return lastKnowledge
}
