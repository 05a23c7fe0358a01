import type OpenAI from 'openai'
import type { Checkpoint, CheckpointStep } from '../../plugin/protocol'
import type { MetaBlogApi } from '../api/metablog-api'
import type { EventBus, MetaBlogEvents } from '../event-bus'
import type { CostTracker } from './cost-tracker'
import type { Logger } from './logger'
import { hashText } from './hash'
import { createModelPort } from './model-port'
import type { ApprovalDecision, ChatState, ConflictDecision, Proposal, Skill, SkillContext, TaskInputs } from './types'

const CHECKPOINT_INTERVAL_MS = 1000

/** What a running task needs from the runtime around it. */
export interface TaskHost {
  api: MetaBlogApi
  llm: OpenAI | null
  model: string | null
  costs: CostTracker
  logger: Logger
  state: ChatState
  bus: EventBus<MetaBlogEvents>
  touch(): void
  approve(taskId: string, proposal: Proposal, signal: AbortSignal): Promise<ApprovalDecision>
  resolveConflict(taskId: string, path: string, summary: string, signal: AbortSignal): Promise<ConflictDecision>
}

let counter = 0
export function createTaskId(now = Date.now()): string {
  counter = (counter + 1) % 1296
  return `task-${now.toString(36)}-${counter.toString(36)}${Math.random().toString(36).slice(2, 6)}`
}

/**
 * One run of a skill: its steps from the first unfinished one, a checkpoint after each finished
 * step (and about once a second while a step streams), all under one AbortController.
 */
export class TaskRun {
  readonly taskId: string
  readonly controller = new AbortController()
  readonly title: string
  private readonly finished: CheckpointStep[]
  private partial: Checkpoint['partial']
  private readonly expectedHashes: Record<string, string>
  private readonly pendingHashes: Record<string, string> = {}
  private readonly createdPaths: string[]
  private replyId: string | null = null
  private lastSave = 0
  private saving: Promise<void> = Promise.resolve()
  private stepIndex = 0

  constructor(
    private readonly host: TaskHost,
    readonly skill: Skill,
    readonly inputs: TaskInputs,
    checkpoint?: Checkpoint,
  ) {
    this.taskId = checkpoint?.taskId ?? createTaskId()
    this.title = checkpoint?.title ?? skill.title(inputs)
    this.finished = [...(checkpoint?.steps ?? [])]
    this.partial = checkpoint?.partial
    this.expectedHashes = { ...checkpoint?.expectedHashes }
    this.createdPaths = [...(checkpoint?.createdPaths ?? [])]
  }

  get signal(): AbortSignal {
    return this.controller.signal
  }

  /** The page the task is about: the one it created, else the one it was asked to work on. */
  get path(): string | undefined {
    return this.createdPaths[0] ?? this.inputs.params.path ?? this.inputs.currentFile
  }

  get finishedCount(): number {
    return this.finished.length
  }

  checkpoint(): Omit<Checkpoint, 'updatedAt'> {
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
    }
  }

  /** Saves the checkpoint; saves are queued so an older one never lands after a newer one. */
  saveCheckpoint(): Promise<void> {
    this.lastSave = Date.now()
    const snapshot = structuredClone(this.checkpoint())
    this.saving = this.saving
      .then(() => this.host.api.saveCheckpoint(snapshot))
      .then(
        () => undefined,
        (error: Error) => this.host.logger.log('agent.error', { taskId: this.taskId, where: 'checkpoint', message: error.message }, 'warn'),
      )
    return this.saving
  }

  async run(): Promise<void> {
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

  /** The API as a step sees it: every page it writes or deletes is logged and announced on the bus. */
  private trackedApi(): MetaBlogApi {
    const { api, logger, bus } = this.host
    const taskId = this.taskId
    return {
      ...api,
      async writeFile(path, content, expectedHash, options) {
        const written = await api.writeFile(path, content, expectedHash, options)
        logger.log('agent.file.saved', { taskId, path, hash: written.hash, created: expectedHash === null })
        bus.emit('file:written', { path, hash: written.hash, kind: expectedHash === null ? 'created' : 'updated' })
        return written
      },
      async deleteFile(path, expectedHash, options) {
        const deleted = await api.deleteFile(path, expectedHash, options)
        logger.log('agent.file.saved', { taskId, path, hash: null, deleted: true })
        bus.emit('file:written', { path, hash: null, kind: 'deleted' })
        return deleted
      },
    }
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
    return {
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
        if (Date.now() - run.lastSave >= CHECKPOINT_INTERVAL_MS) void run.saveCheckpoint()
      },
      saveCheckpoint: () => this.saveCheckpoint(),
      say: (markdown) => this.say(markdown),
      replyStream: () => {
        const id = `${this.taskId}-reply-${Date.now().toString(36)}`
        let text = ''
        host.state.pushMessage({ id, kind: 'assistant', taskId: this.taskId, text, streaming: true })
        return {
          append(delta: string) {
            text += delta
            host.touch()
            host.state.updateMessage(id, { text })
          },
          done: () => host.state.updateMessage(id, { streaming: false, cost: host.costs.task(this.taskId) }),
        }
      },
      writePage: async (path, content, expectedHash) => {
        this.pendingHashes[path] = await hashText(content)
        await this.saveCheckpoint()
        const { hash } = await api.writeFile(path, content, expectedHash, { signal: this.signal, taskId: this.taskId })
        this.expectedHashes[path] = hash
        delete this.pendingHashes[path]
        return hash
      },
      expectHash: (path, hash) => {
        if (hash === null) delete this.expectedHashes[path]
        else this.expectedHashes[path] = hash
      },
      markCreated: (path) => {
        if (!this.createdPaths.includes(path)) this.createdPaths.push(path)
      },
      approve: (proposal) => host.approve(this.taskId, proposal, this.signal),
      resolveConflict: (path, summary) => host.resolveConflict(this.taskId, path, summary, this.signal),
    }
  }

  private say(markdown: string): void {
    if (this.replyId === null) {
      this.replyId = `${this.taskId}-say`
      this.host.state.pushMessage({ id: this.replyId, kind: 'assistant', taskId: this.taskId, text: markdown, streaming: false })
      return
    }
    const message = this.host.state.messages.find((item) => item.id === this.replyId)
    const previous = message && message.kind === 'assistant' ? message.text : ''
    this.host.state.updateMessage(this.replyId, { text: `${previous}\n\n${markdown}` })
  }
}
