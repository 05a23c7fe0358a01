// The shapes a skill and the runtime share. Framework-free: the Vue layer adapts ChatState.
import type { ChatCompletionMessageParam, ChatCompletionTool, CompletionUsage } from 'openai/resources'
import type { FinishReason } from '../api/stream-chat'
import type { MetaBlogApi } from '../api/metablog-api'
import type { ApprovalMode } from './approvals'
import type { Attachment } from './conversation/mentions'
import type { CostTotals } from './cost-tracker'
import type { SkillCommand, SkillPatterns } from './define-skill'
import type { PageOperations } from './page-operations'
import type { Intent, IntentParams } from './intent-types'
import type { AgentState } from './state-machine'

export interface TaskInputs {
  text: string
  intent: Intent
  params: IntentParams
  currentFile?: string
  selectedText?: string
  /** Agent turns: the mode the turn runs in (kept for a resume). */
  mode?: ApprovalMode
  /** Agent turns: the conversation so far, oldest first (requests, answers, a summary of compacted turns as `system`). */
  history?: { role: 'user' | 'assistant' | 'system'; text: string }[]
  /** Agent turns: the tools the model may call (a custom prompt's allow-list); all of the mode's when absent. */
  tools?: string[]
  /** Agent turns: the text of the pages the author mentioned, each cut to a cap. */
  attachments?: Attachment[]
}

/** A change to a page that waits for the author, unless they chose auto-edit. */
export interface Proposal {
  kind: 'edit' | 'delete' | 'description' | 'links' | 'create'
  path: string
  summary: string
  before: string
  after: string
  /** Something the author should know before deciding (e.g. raw HTML in the model's text was made inert). */
  warning?: string
  /** The card offers a reason for a rejection, which goes back to the model (the agent's tools). */
  askReason?: boolean
}

export type ApprovalDecision = { action: 'accept'; after?: string } | { action: 'reject'; reason?: string }
export type ConflictDecision = 'reapply' | 'drop'

export interface ModelRequest {
  messages: ChatCompletionMessageParam[]
  temperature?: number
  maxTokens?: number
  /** Tools the model may call this turn. */
  tools?: ChatCompletionTool[]
}

/** A tool call as the model sent it; `arguments` is null when they were not valid JSON (see `error`). */
export interface ModelToolCall {
  id: string
  name: string
  arguments: Record<string, unknown> | null
  rawArguments: string
  error?: string
}

export interface TurnHandlers {
  onText?: (delta: string, text: string) => void
  /** A tool call being written: its name and the length of its arguments so far. */
  onToolCallProgress?: (name: string, characters: number) => void
  /** Reasoning as it arrives (`reasoning_content` or a `<think>` block): never part of the text. */
  onReasoning?: (delta: string, reasoning: string) => void
}

/** One model turn: its text, the tools it called, why it stopped, and what it cost. */
export interface ModelTurn {
  text: string
  toolCalls: ModelToolCall[]
  finishReason: FinishReason
  usage: CompletionUsage | null
  /** The model's reasoning, kept out of `text`. */
  reasoning?: string
}

/** The model as a skill sees it: one call, text deltas as they arrive, usage recorded for the task. */
export interface ModelPort {
  readonly model: string
  complete(request: ModelRequest, options?: Pick<TurnHandlers, 'onText' | 'onReasoning'>): Promise<string>
  /** The same call, answered whole: text, tool calls, finish reason and usage. */
  turn(request: ModelRequest, options?: TurnHandlers): Promise<ModelTurn>
}

export interface SkillContext {
  readonly taskId: string
  readonly inputs: TaskInputs
  readonly signal: AbortSignal
  readonly api: MetaBlogApi
  /** Reads and writes pages with hashes the runtime keeps; a stale write becomes a conflict card. */
  readonly pages: PageOperations
  /** Null when no model is configured: skills that can, degrade. */
  readonly model: ModelPort | null
  /** Text the running step had streamed before the task was interrupted, to continue from. */
  readonly resumedText: string
  /** What an earlier finished step returned. */
  output<T>(stepId: string): T
  /** Says what is happening now: updates the progress bar and keeps the watchdog quiet. */
  progress(message: string): void
  /** The running step's streamed text so far; checkpointed about once a second. */
  streamed(text: string): void
  /** Saves the checkpoint now (after a page write, so the two agree). */
  saveCheckpoint(): Promise<void>
  /** Appends Markdown to this task's reply. */
  say(markdown: string): void
  /** Streams into a fresh reply message (summaries, answers). */
  replyStream(): { append(delta: string): void; done(extra?: { mode?: ApprovalMode; plan?: string; cost?: CostTotals }): void }
  /**
   * Writes a page the task owns (`expectedHash` null creates it) and records its new hash; the
   * checkpoint notes the write before it is sent, so a crash mid-write is not mistaken for an edit.
   */
  writePage(path: string, content: string, expectedHash: string | null): Promise<string>
  /** Records the hash of a page as the task last read or wrote it. */
  expectHash(path: string, hash: string | null): void
  /** The hash of a page as the task last read or wrote it (kept across a resume); null if none. */
  expectedHash(path: string): string | null
  /** Pages this task created, also before an interruption. */
  readonly createdPaths: readonly string[]
  markCreated(path: string): void
  approve(proposal: Proposal, mode?: ApprovalMode): Promise<ApprovalDecision>
  resolveConflict(path: string, summary: string): Promise<ConflictDecision>
  /** A result this run (or the run before a resume) recorded under `id`; undefined if none. */
  recorded<T>(id: string): T | undefined
  /** Records a result and saves the checkpoint, so a resume reuses it instead of doing it again. */
  record(id: string, output: unknown): Promise<void>
  /** Whether a write to `path` was sent just before the interruption this run resumes from, and landed. */
  landedWrite(path: string): boolean
  /** Shows one tool call as a compact row in the conversation; `finish` fills in how it went. */
  showToolCall(call: { name: string; summary: string; arguments: unknown }): { finish(outcome: ToolRowOutcome): void }
  /** Runs `work` (quick requests the loop waits on) with the panel's updates held back (see ChatState.hold). */
  quietPanel<T>(work: Promise<T>): Promise<T>
}

export interface ToolRowOutcome {
  ok: boolean
  /** The error's code, when it failed. */
  code?: string
  summary: string
  /** The result or error, as the model was given it. */
  result: string
}

export interface SkillStep {
  id: string
  title: string
  /** Whether running this step replaces a page the task did not create (resume risk). */
  writesExistingPage?: boolean | ((inputs: TaskInputs) => boolean)
  run(context: SkillContext): Promise<unknown>
}

export interface Skill {
  name: string
  intents: readonly Intent[]
  /** A skill that cannot work at all without a model. */
  needsModel: boolean
  /** Its slash commands, with their menu and help lines. */
  commands?: readonly SkillCommand[]
  /** Its keyword patterns, English and Chinese. */
  patterns?: SkillPatterns
  /** Params the model classifier may fill for it (see IntentParams). */
  params?: readonly (keyof TaskInputs['params'])[]
  /** Bumped when its steps change shape: a checkpoint from another version is not resumed. */
  version?: number
  title(inputs: TaskInputs): string
  steps: readonly SkillStep[]
}

export interface TaskProgress {
  taskId: string
  title: string
  step: string
  index: number
  total: number
  message: string
}

/** How a task run ended, as the runtime's history keeps it. */
export interface TaskRecord {
  taskId: string
  skill: string
  title: string
  outcome: 'COMPLETED' | 'ERROR' | 'CANCELLED'
  finishedAt: number
}

export interface ResumableTask {
  taskId: string
  skill: string
  title: string
  finishedSteps: number
  totalSteps: number
  updatedAt: number
  /** Model turns and tool results saved inside the running step (the agent's). */
  savedResults?: number
  /** The page the task was about, when it names one. */
  path?: string
  /** Older interrupted runs of the same skill on the same page, which this newest one stands for. */
  superseded?: string[]
}

export type ChatMessage =
  | { id: string; kind: 'user'; text: string; selection?: string; file?: string }
  | { id: string; kind: 'assistant'; taskId?: string; text: string; streaming: boolean; cost?: CostTotals; mode?: ApprovalMode; plan?: string }
  | {
      id: string
      kind: 'tool'
      taskId: string
      name: string
      summary: string
      /** The arguments as JSON text. */
      arguments: string
      status: 'running' | 'done' | 'error'
      result?: string
    }
  | { id: string; kind: 'approval'; taskId: string; proposal: Proposal; status: 'pending' | 'accepted' | 'rejected' }
  | { id: string; kind: 'conflict'; taskId: string; path: string; summary: string; status: 'pending' | 'reapply' | 'drop' }
  | { id: string; kind: 'error'; taskId?: string; code: string; message: string; retryText?: string }
  | { id: string; kind: 'setup'; text: string }

/** What the runtime writes the conversation to; the Pinia store implements it with refs. */
export interface ChatState {
  readonly messages: readonly ChatMessage[]
  pushMessage(message: ChatMessage): void
  updateMessage(id: string, patch: Partial<ChatMessage>): void
  setStatus(state: AgentState, taskId: string | null): void
  setProgress(progress: TaskProgress | null): void
  setResumable(tasks: ResumableTask[]): void
  setSessionCost(cost: CostTotals): void
  /**
   * Keeps what the panel shows as it is until the returned release is called (for a tenth of a second
   * at most): the agent loop holds it while its read tools' requests are out, so no frame of the panel
   * lands between their answers and its next request. Optional: a state without frames has nothing to hold.
   */
  hold?(): () => void
}
