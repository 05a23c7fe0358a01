// Runs a skill's steps the way TaskRun does (finished steps skipped, outputs kept), against an
// in-memory blog that keeps the file API's hash rules and a scripted model that records its calls.
import { ApiError, type MetaBlogApi } from '../../../../client/api/metablog-api'
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
  const api = {
    readFile: async (path: string) => ({ path, content: current(path).content, hash: hashes.get(path)! }),
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
    has: (path: string) => files.has(path),
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

/** Answers in order; an Error in the script is thrown instead (an upstream failure mid-task). */
export function scriptedModel(answers: (string | Error)[]): ScriptedModel {
  const calls: ModelRequest[] = []
  return {
    model: 'scripted',
    calls,
    async complete(request, handlers) {
      calls.push(request)
      const answer = answers.shift()
      if (answer === undefined) throw new Error('The scripted model has no more answers.')
      if (answer instanceof Error) throw answer
      let text = ''
      for (const piece of answer.match(/[\s\S]{1,7}/g) ?? []) {
        text += piece
        handlers?.onText?.(piece, text)
      }
      return text
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
  }
  const decisions = [...(options.decisions ?? [])]
  const conflicts = [...(options.conflicts ?? [])]
  try {
    for (const step of skill.steps) {
      if (run.outputs.has(step.id)) continue
      const resumedText = run.partial?.stepId === step.id ? run.partial.text : ''
      const context: SkillContext = {
        taskId: 'task-test',
        inputs,
        signal: new AbortController().signal,
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
        expectHash: () => undefined,
        markCreated: () => undefined,
        approve: async (proposal) => {
          run.proposals.push(proposal)
          return decisions.shift() ?? { action: 'accept' }
        },
        resolveConflict: async (_path, summary) => {
          run.conflicts.push(summary)
          return conflicts.shift() ?? 'reapply'
        },
      }
      const output = await step.run(context)
      run.outputs.set(step.id, output ?? null)
      run.partial = undefined
    }
  } catch (error) {
    run.error = error
  }
  return run
}
