// Runs a skill's steps the way TaskRun does (finished steps skipped, outputs kept), against an
// in-memory blog that keeps the file API's hash rules and a scripted model that records its calls.
import { ApiError } from '../../../../client/api/errors'
import type { MetaBlogApi } from '../../../../client/api/metablog-api'
import { createPageOperations } from '../../../../client/runtime/page-operations'
import type { ApprovalDecision, ConflictDecision, ModelPort, ModelRequest, Proposal, Skill, SkillContext, TaskInputs } from '../../../../client/runtime/types'
import type { GraphResponse, SearchResult } from '../../../../plugin/protocol'

export interface Page {
  content: string
  title: string
  description?: string
}

export function createBlog(pages: Record<string, Page>, extra: { graph?: GraphResponse; search?: (query: string) => SearchResult[] } = {}) {
  const files = new Map(Object.entries(pages))
  let version = 0
  const hashes = new Map([...files.keys()].map((path) => [path, `h${version++}`]))
  const current = (path: string) => {
    const page = files.get(path)
    if (!page) throw new ApiError('ERR_NOT_FOUND', `No page ${path}.`, 404)
    return page
  }
  const checkHash = (path: string, expected: string | null) => {
    const hash = hashes.get(path) ?? null
    if (hash !== expected) throw new ApiError('ERR_STALE', `${path} changed.`, 412, { currentHash: hash ?? undefined })
  }
  const locks: { path: string; taskId: string; aborted: boolean }[] = []
  const api = {
    readFile: async (path: string) => ({ path, content: current(path).content, hash: hashes.get(path)! }),
    readHash: async (path: string) => hashes.get(path) ?? null,
    lock: async (path: string, taskId: string, options: { signal?: AbortSignal } = {}) => {
      locks.push({ path, taskId, aborted: options.signal?.aborted ?? false })
      return { path, taskId, expiresAt: Date.now() + 300_000 }
    },
    releaseLocks: async () => ({ released: [] }),
    writeFile: async (path: string, content: string, expectedHash: string | null) => {
      checkHash(path, expectedHash)
      files.set(path, { ...(files.get(path) ?? { title: path }), content })
      hashes.set(path, `h${version++}`)
      return { path, hash: hashes.get(path)! }
    },
    deleteFile: async (path: string, expectedHash: string) => {
      current(path)
      checkHash(path, expectedHash)
      files.delete(path)
      hashes.delete(path)
      return { path }
    },
    listPages: async () => ({
      pages: [...files].map(([path, page]) => ({ path, title: page.title, hash: hashes.get(path)!, tags: [], draft: false, description: page.description })),
    }),
    search: async (query: string) => ({ results: extra.search?.(query) ?? [] }),
    graph: async () => extra.graph ?? { nodes: [...files].map(([path, page]) => ({ path, title: page.title, tags: [] })), edges: [], unresolved: [] },
  }
  return {
    api: api as unknown as MetaBlogApi,
    content: (path: string) => files.get(path)?.content,
    hash: (path: string) => hashes.get(path) ?? null,
    has: (path: string) => files.has(path),
    /** Every lock request, and whether its task was already stopped when it was sent. */
    locks,
    /** The author edits the page in their editor: its hash changes. */
    edit(path: string, content: string) {
      files.set(path, { ...current(path), content })
      hashes.set(path, `h${version++}`)
    },
  }
}

export interface ScriptedModel extends ModelPort {
  calls: ModelRequest[]
}

/** An answer: its text, an Error to throw (an upstream failure mid-task), or a function run at call time (the author acting meanwhile). */
export type ScriptedAnswer = string | Error | ((request: ModelRequest) => string | Error)

/** Answers in order, streaming each in 7-character pieces. */
export function scriptedModel(answers: ScriptedAnswer[]): ScriptedModel {
  const calls: ModelRequest[] = []
  return {
    model: 'scripted',
    calls,
    async complete(request, handlers) {
      calls.push(request)
      const next = answers.shift()
      if (next === undefined) throw new Error('The scripted model has no more answers.')
      const answer = typeof next === 'function' ? next(request) : next
      if (answer instanceof Error) throw answer
      let text = ''
      for (const piece of answer.match(/[\s\S]{1,7}/g) ?? []) {
        text += piece
        handlers?.onText?.(piece, text)
      }
      return text
    },
    async turn(request, handlers) {
      return { text: await this.complete(request, handlers), toolCalls: [], finishReason: 'stop', usage: null }
    },
  }
}

export interface Run {
  outputs: Map<string, unknown>
  replies: string[]
  said: string[]
  progress: string[]
  proposals: Proposal[]
  conflicts: string[]
  /** The last streamed text of the step that was running, as a checkpoint keeps it. */
  partial: { stepId: string; text: string } | undefined
  /** Page hashes as the task last read or wrote them, and the pages it created (a checkpoint keeps both). */
  expected: Record<string, string>
  created: string[]
  error?: unknown
}

export interface RunOptions {
  inputs: Partial<TaskInputs> & { text: string }
  api: MetaBlogApi
  model?: ModelPort | null
  decisions?: ApprovalDecision[]
  conflicts?: ConflictDecision[]
  /** Continue an interrupted run: its finished outputs and partial text. */
  resume?: Run
  /** The task's signal; stopping it is the author pressing Stop. */
  signal?: AbortSignal
  /** Pages whose write landed just before the interruption this run resumes from. */
  landed?: string[]
}

export async function runSkill(skill: Skill, options: RunOptions): Promise<Run> {
  const inputs: TaskInputs = { intent: skill.intents[0]!, params: {}, ...options.inputs }
  const run: Run = {
    outputs: new Map(options.resume?.outputs),
    replies: [],
    said: [],
    progress: [],
    proposals: [],
    conflicts: [],
    partial: options.resume?.partial,
    expected: { ...options.resume?.expected },
    created: [...(options.resume?.created ?? [])],
  }
  const decisions = [...(options.decisions ?? [])]
  const conflicts = [...(options.conflicts ?? [])]
  try {
    for (const step of skill.steps) {
      if (run.outputs.has(step.id)) continue
      const resumedText = run.partial?.stepId === step.id ? run.partial.text : ''
      const base: Omit<SkillContext, 'pages'> = {
        taskId: 'task-test',
        inputs,
        signal: options.signal ?? new AbortController().signal,
        api: options.api,
        model: options.model ?? null,
        resumedText,
        output<T>(id: string): T {
          if (!run.outputs.has(id)) throw new Error(`Step "${id}" has not run yet.`)
          return run.outputs.get(id) as T
        },
        progress: (message) => run.progress.push(message),
        streamed: (text) => {
          run.partial = { stepId: step.id, text }
        },
        saveCheckpoint: async () => undefined,
        say: (markdown) => run.said.push(markdown),
        replyStream: () => {
          const index = run.replies.push('') - 1
          return { append: (delta) => (run.replies[index] += delta), done: () => undefined }
        },
        writePage: async (path, content, expectedHash) => {
          const { hash } = await options.api.writeFile(path, content, expectedHash)
          run.expected[path] = hash
          return hash
        },
        expectHash: (path, hash) => {
          if (hash === null) delete run.expected[path]
          else run.expected[path] = hash
        },
        expectedHash: (path) => run.expected[path] ?? null,
        createdPaths: run.created,
        markCreated: (path) => {
          if (!run.created.includes(path)) run.created.push(path)
        },
        approve: async (proposal) => {
          run.proposals.push(proposal)
          return decisions.shift() ?? { action: 'accept' }
        },
        resolveConflict: async (_path, summary) => {
          run.conflicts.push(summary)
          return conflicts.shift() ?? 'reapply'
        },
        recorded: <T>(id: string) => run.outputs.get(id) as T | undefined,
        record: async (id, output) => void run.outputs.set(id, output),
        showToolCall: () => ({ finish: () => undefined }),
        quietPanel: (work) => work,
        landedWrite: (path) => options.landed?.includes(path) ?? false,
      }
      const context: SkillContext = { ...base, pages: createPageOperations(base) }
      const output = await step.run(context)
      run.outputs.set(step.id, output ?? null)
      run.partial = undefined
    }
  } catch (error) {
    run.error = error
  }
  return run
}
