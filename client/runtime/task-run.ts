import type { Checkpoint, CheckpointStep } from '../../plugin/protocol'
import { errorCode, type ClientError } from '../api/errors'
import type { MetaBlogApi } from '../api/metablog-api'
import { CheckpointSaver, type CheckpointData } from './checkpoint-saver'
import { guardedContent } from './guarded-write'
import { hashText } from './hash'
import { messageId } from './messages'
import { createModelPort } from './model-port'
import { createPageOperations } from './page-operations'
import { createTaskId, type TaskHost } from './task-host'
import type { Skill, SkillContext, TaskInputs, ToolRowOutcome } from './types'

export type { TaskHost } from './task-host'

const CHECKPOINT_INTERVAL_MS = 1000
/** A page lock lasts five minutes on the server; a writer renews it when it is older than this. */
const LOCK_RENEW_MS = 2 * 60_000

/**
 * One run of a skill: its steps from the first unfinished one, a checkpoint after each finished
 * step (and about once a second while a step streams), all under one AbortController.
 */
export class TaskRun {
  readonly taskId: string
  readonly controller = new AbortController()
  readonly title: string
  private readonly finished: CheckpointStep[]
  private readonly records: CheckpointStep[]
  /** Records by id: a long loop looks its results up at every step. */
  private readonly recordIndex = new Map<string, CheckpointStep>()
  private partial: Checkpoint['partial']
  private readonly expectedHashes: Record<string, string>
  private readonly pendingHashes: Record<string, string>
  private readonly createdPaths: string[]
  private readonly saver: CheckpointSaver
  /** This run's reply: a resumed task gets a new one, its earlier run's reply may still be in the conversation. */
  private replyId: string | null = null
  private saveFailureNoted = false
  private stepIndex = 0
  /** Pages whose write was sent just before the interruption and landed. */
  private readonly landed = new Set<string>()
  /** When this run last locked each page it writes. */
  private readonly lockedAt = new Map<string, number>()

  constructor(
    private readonly host: TaskHost,
    readonly skill: Skill,
    readonly inputs: TaskInputs,
    checkpoint?: Checkpoint,
  ) {
    this.taskId = checkpoint?.taskId ?? createTaskId()
    this.title = checkpoint?.title ?? skill.title(inputs)
    this.finished = [...(checkpoint?.steps ?? [])]
    this.records = [...(checkpoint?.records ?? [])]
    // The first record of an id wins, as a search from the start would find it.
    for (const record of [...this.records].reverse()) this.recordIndex.set(record.id, record)
    this.partial = checkpoint?.partial
    this.expectedHashes = { ...checkpoint?.expectedHashes }
    this.pendingHashes = { ...checkpoint?.pendingHashes }
    this.createdPaths = [...(checkpoint?.createdPaths ?? [])]
    const { api } = host
    const transport = { save: (data: CheckpointData) => api.saveCheckpoint(data), ...(api.appendCheckpoint ? { append: api.appendCheckpoint.bind(api) } : {}) }
    this.saver = new CheckpointSaver(() => this.checkpoint(), transport, (error) => this.reportSaveFailure(error))
  }

  get signal(): AbortSignal {
    return this.controller.signal
  }

  /** The page the task is about: the one it created last, else the one it was asked to work on. */
  get path(): string | undefined {
    return this.createdPaths.at(-1) ?? this.inputs.params.path ?? this.inputs.currentFile
  }

  /** Finished steps and results recorded inside a step: what a resume would not do again. */
  get finishedCount(): number {
    return this.finished.length + this.records.length
  }

  checkpoint(): CheckpointData {
    return {
      taskId: this.taskId,
      skill: this.skill.name,
      title: this.title,
      inputs: this.inputs as unknown as Record<string, unknown>,
      steps: this.finished,
      partial: this.partial,
      expectedHashes: this.expectedHashes,
      pendingHashes: this.pendingHashes,
      createdPaths: this.createdPaths,
      totalSteps: this.skill.steps.length,
      owner: this.host.tabId,
      skillVersion: this.skill.version ?? 1,
      records: this.records,
    }
  }

  saveCheckpoint(): Promise<void> {
    return this.saver.save()
  }

  /** Drops the checkpoint, after any save still under way (which would otherwise bring it back). */
  async discardCheckpoint(): Promise<void> {
    await this.saver.settled()
    await this.host.api.deleteCheckpoint(this.taskId).catch(() => undefined)
  }

  private reportSaveFailure(error: Error): void {
    this.host.logger.log('agent.error', { taskId: this.taskId, where: 'checkpoint', message: error.message }, 'warn')
    if (this.saveFailureNoted) return
    this.saveFailureNoted = true
    this.host.state.pushMessage({
      id: messageId(`${this.taskId}-checkpoint-failed`),
      kind: 'assistant',
      taskId: this.taskId,
      text: `I could not save this task's progress (${error.message}). If the task stops now, a resume starts from the last step that was saved.`,
      streaming: false,
    })
  }

  /**
   * A write sent just before an interruption may have landed: if the page now holds exactly what
   * the task was writing, that is the task's own version, not an edit by the author.
   */
  private async adoptLandedWrites(): Promise<void> {
    for (const [path, pending] of Object.entries(this.pendingHashes)) {
      if ((await this.host.api.readHash(path, { signal: this.signal })) === pending) {
        this.expectedHashes[path] = pending
        this.landed.add(path)
      }
      delete this.pendingHashes[path]
    }
  }

  async run(): Promise<void> {
    await this.adoptLandedWrites()
    const steps = this.skill.steps
    for (this.stepIndex = 0; this.stepIndex < steps.length; this.stepIndex++) {
      const step = steps[this.stepIndex]!
      if (this.finished.some((done) => done.id === step.id)) continue
      this.signal.throwIfAborted()
      this.report(step.title, step.title)
      const resumedText = this.partial?.stepId === step.id ? this.partial.text : ''
      const output = await step.run(this.context(step.id, resumedText))
      this.signal.throwIfAborted()
      this.finished.push({ id: step.id, output: output ?? null, finishedAt: Date.now() })
      this.partial = undefined
      await this.saveCheckpoint()
    }
  }

  private report(step: string, message: string): void {
    this.host.touch()
    const progress = { taskId: this.taskId, title: this.title, step, index: this.stepIndex, total: this.skill.steps.length, message }
    this.host.state.setProgress(progress)
    this.host.bus.emit('agent:progress', progress)
  }

  /**
   * The API as a step sees it: every page it writes or deletes is logged. The page's `file:written`
   * event comes from the dev server (server-events.ts), which also sees the author's own edits.
   */
  private trackedApi(): MetaBlogApi {
    const { api, logger } = this.host
    const taskId = this.taskId
    const lock = (path: string) => this.lock(path)
    return {
      ...api,
      async writeFile(path, content, expectedHash, options) {
        const written = await api.writeFile(path, content, expectedHash, options)
        logger.log('agent.file.saved', { taskId, path, hash: written.hash, created: expectedHash === null })
        return written
      },
      async deleteFile(path, expectedHash, options) {
        await lock(path)
        const deleted = await api.deleteFile(path, expectedHash, options)
        logger.log('agent.file.saved', { taskId, path, hash: null, deleted: true })
        return deleted
      },
    }
  }

  /** Every writer locks the page first (the runtime's job, not each skill's), renewing an old lock. */
  private async lock(path: string): Promise<void> {
    const at = this.lockedAt.get(path)
    if (at !== undefined && Date.now() - at < LOCK_RENEW_MS) return
    await this.host.api.lock(path, this.taskId, { signal: this.signal })
    this.lockedAt.set(path, Date.now())
  }

  /** Writes with the hash the task expects; a stale answer for a page that already holds this exact content is a write that landed. */
  private async writePage(api: MetaBlogApi, path: string, text: string, expectedHash: string | null): Promise<string> {
    await this.lock(path)
    const content = await guardedContent(api, path, text, expectedHash, this.signal)
    const wanted = await hashText(content)
    this.pendingHashes[path] = wanted
    await this.saveCheckpoint()
    let hash: string
    try {
      hash = (await api.writeFile(path, content, expectedHash, { signal: this.signal, taskId: this.taskId })).hash
    } catch (error) {
      if (errorCode(error) !== 'ERR_STALE') throw error
      const current = (error as ClientError).details?.currentHash ?? (await api.readHash(path, { signal: this.signal }))
      if (current !== wanted) {
        // Refused, so it never landed: nothing is pending.
        delete this.pendingHashes[path]
        throw error
      }
      hash = wanted
    }
    this.expectedHashes[path] = hash
    delete this.pendingHashes[path]
    return hash
  }

  private context(stepId: string, resumedText: string): SkillContext {
    const run = this
    const host = this.host
    const api = this.trackedApi()
    const step = this.skill.steps[this.stepIndex]!
    const model =
      host.llm && host.model
        ? createModelPort({ client: host.llm, model: host.model, taskId: this.taskId, signal: this.signal, costs: host.costs, logger: host.logger })
        : null
    const context: Omit<SkillContext, 'pages'> = {
      taskId: this.taskId,
      inputs: this.inputs,
      signal: this.signal,
      api,
      model,
      resumedText,
      output<T>(id: string): T {
        const done = run.finished.find((item) => item.id === id)
        if (!done) throw new Error(`Step "${id}" has not run yet.`)
        return done.output as T
      },
      progress: (message) => this.report(step.title, message),
      streamed(text) {
        host.touch()
        run.partial = { stepId, text }
        if (Date.now() - run.saver.lastSave >= CHECKPOINT_INTERVAL_MS) void run.saveCheckpoint()
      },
      saveCheckpoint: () => this.saveCheckpoint(),
      say: (markdown) => this.say(markdown),
      replyStream: () => {
        const id = messageId(`${this.taskId}-reply`)
        let text = ''
        host.state.pushMessage({ id, kind: 'assistant', taskId: this.taskId, text, streaming: true })
        return {
          append(delta: string) {
            text += delta
            host.touch()
            host.state.updateMessage(id, { text })
          },
          done: (extra = {}) => host.state.updateMessage(id, { streaming: false, cost: host.costs.task(this.taskId), ...extra }),
        }
      },
      writePage: (path, content, expectedHash) => this.writePage(api, path, content, expectedHash),
      expectHash: (path, hash) => {
        if (hash === null) delete this.expectedHashes[path]
        else this.expectedHashes[path] = hash
      },
      expectedHash: (path) => (Object.hasOwn(this.expectedHashes, path) ? this.expectedHashes[path]! : null),
      createdPaths: this.createdPaths,
      markCreated: (path) => {
        if (!this.createdPaths.includes(path)) this.createdPaths.push(path)
      },
      approve: (proposal, mode) => host.approve(this.taskId, proposal, this.signal, mode),
      resolveConflict: (path, summary) => host.resolveConflict(this.taskId, path, summary, this.signal),
      recorded: <T>(id: string) => run.recordIndex.get(id)?.output as T | undefined,
      record: async (id, output) => {
        host.touch()
        const record = { id, output: output ?? null, finishedAt: Date.now() }
        run.records.push(record)
        if (!run.recordIndex.has(id)) run.recordIndex.set(id, record)
        await run.saveCheckpoint()
      },
      showToolCall: (call) => this.showToolCall(call),
      quietPanel: async (work) => {
        const release = host.state.hold?.()
        try {
          return await work
        } finally {
          release?.()
        }
      },
      landedWrite: (path) => this.landed.has(path),
    }
    return { ...context, pages: createPageOperations(context) }
  }

  private showToolCall(call: { name: string; summary: string; arguments: unknown }): { finish(outcome: ToolRowOutcome): void } {
    const id = messageId(`${this.taskId}-tool`)
    const { state } = this.host
    this.host.touch()
    state.pushMessage({ id, kind: 'tool', taskId: this.taskId, name: call.name, summary: call.summary, arguments: JSON.stringify(call.arguments ?? null), status: 'running' })
    const started = Date.now()
    return {
      finish: (outcome) => {
        state.updateMessage(id, { status: outcome.ok ? 'done' : 'error', summary: outcome.summary, result: outcome.result })
        // The tool's name and how it went, never its arguments or result (they can hold whole pages).
        this.host.logger.log('agent.tool.called', { taskId: this.taskId, tool: call.name, ok: outcome.ok, code: outcome.code, ms: Date.now() - started })
      },
    }
  }

  private say(markdown: string): void {
    if (this.replyId === null) {
      this.replyId = messageId(`${this.taskId}-say`)
      this.host.state.pushMessage({ id: this.replyId, kind: 'assistant', taskId: this.taskId, text: markdown, streaming: false })
      return
    }
    const message = this.host.state.messages.find((item) => item.id === this.replyId)
    const previous = message && message.kind === 'assistant' ? message.text : ''
    this.host.state.updateMessage(this.replyId, { text: `${previous}\n\n${markdown}` })
  }
}
