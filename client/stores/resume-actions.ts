// Resume and discard of interrupted tasks, for the assistant store.
import type { Ref } from 'vue'
import type { AgentRuntime } from '../runtime/agent-runtime'
import type { ResumePreview } from '../runtime/resume'
import type { ResumableTask } from '../runtime/types'
import type { AssistantMessage } from './conversation-storage'

export type ResumeOutcome =
  | { status: 'started' }
  | { status: 'needs-confirmation'; preview: ResumePreview }
  | { status: 'failed'; message: string }

export interface ResumeActionsOptions {
  runtime: () => AgentRuntime | null
  resumable: Ref<ResumableTask[]>
  /** A request sent whose task has not reported a state yet. */
  starting: Ref<boolean>
  isWorking: Readonly<Ref<boolean>>
  patchMessages(match: (message: AssistantMessage) => boolean, patch: (message: AssistantMessage) => Partial<AssistantMessage>): void
  note(text: string, task?: string): void
  reportFailure(error: unknown, retryText?: string, task?: string): void
  track(start: () => Promise<unknown>, retryText?: string, task?: string): void
}

export function createResumeActions(options: ResumeActionsOptions) {
  const { resumable, starting, isWorking, patchMessages, note, reportFailure, track } = options

  async function previewResume(id: string): Promise<ResumePreview> {
    const runtime = options.runtime()
    if (!runtime) throw new Error('The assistant is not connected to the dev server.')
    return runtime.previewResume(id)
  }

  /** The runtime checks and starts the resume; a risky one waits for `confirmed`. The task then runs in the background. */
  async function resume(id: string, confirmed = false): Promise<ResumeOutcome> {
    const runtime = options.runtime()
    if (!runtime) return { status: 'failed', message: 'The assistant is not connected to the dev server.' }
    if (isWorking.value) return { status: 'failed', message: 'A task is still running. Stop it first.' }
    starting.value = true
    const outcome = await runtime.resume(id, { confirmed }).catch((error: unknown) => ({ status: 'refused' as const, message: (error as Error).message }))
    if (outcome.status !== 'started') starting.value = false
    if (outcome.status === 'needs-confirmation') return { status: 'needs-confirmation', preview: outcome.preview }
    if (outcome.status === 'refused') return { status: 'failed', message: outcome.message }
    if (outcome.status !== 'started') return { status: 'started' }
    const superseded = resumable.value.find((task) => task.taskId === id)?.superseded ?? []
    resumable.value = resumable.value.filter((task) => task.taskId !== id)
    // The older runs of the same task on the same page would redo what this one now does.
    for (const older of superseded) void runtime.abandonTask(older).catch(() => undefined)
    // The task's earlier error cards can no longer retry it: that would run it a second time.
    patchMessages((message) => message.kind === 'error' && message.taskId === id, () => ({ retryText: undefined }))
    track(() => outcome.done, undefined, id)
    return { status: 'started' }
  }

  /** A risky resume is confirmed in the resume banner, which lists what changed. */
  async function resumeFromCard(id: string): Promise<void> {
    const outcome = await resume(id)
    if (outcome.status === 'needs-confirmation') {
      // The banner takes the task over (it lists what changed): the card's Retry would only ask again.
      patchMessages((message) => message.kind === 'error' && message.taskId === id, () => ({ retryText: undefined }))
      const { title, reasons } = outcome.preview
      note(`Resuming **${title}** may overwrite newer work: ${reasons.join('; ')}. Use Resume in the banner above to check it and resume anyway.`, id)
    } else if (outcome.status === 'failed') {
      reportFailure(new Error(outcome.message), undefined, id)
    }
  }

  /** Drops an interrupted task, with the older runs of it the banner folded into its entry. */
  async function discard(id: string): Promise<void> {
    const runtime = options.runtime()
    if (!runtime) return
    const entry = resumable.value.find((task) => task.taskId === id)
    resumable.value = resumable.value.filter((task) => task.taskId !== id)
    try {
      for (const taskId of [id, ...(entry?.superseded ?? [])]) await runtime.abandonTask(taskId)
    } catch (error) {
      reportFailure(error, undefined, id)
      await runtime.refreshResumable()
    }
  }

  /** The banner's "Discard all". */
  async function discardAll(): Promise<void> {
    for (const task of [...resumable.value]) await discard(task.taskId)
  }

  return { previewResume, resume, resumeFromCard, discard, discardAll }
}
