// The one resume path: the checkpoint is checked once (found, same skill version, valid inputs, not
// running in another tab, its risk), then the task starts at its first unfinished step.
import type { Checkpoint } from '../../plugin/protocol'
import type { MetaBlogApi } from '../api/metablog-api'
import { BUSY, STOPPED, pushNote } from './messages'
import type { ModelStatus } from './model-status'
import type { ResumableTasks } from './resumable-tasks'
import { checkpointProblem, findCheckpoint, previewResume, type ResumePreview, type ResumeStatus } from './resume'
import type { TaskSlot } from './task-slot'
import type { ChatState, Skill, TaskInputs } from './types'

export interface ResumeHost {
  api: MetaBlogApi
  state: ChatState
  skills: ReadonlyMap<string, Skill>
  slot: TaskSlot
  resumable: ResumableTasks
  status: ModelStatus
  initialize(): Promise<void>
  refreshResumable(): Promise<unknown>
  showSetup(): void
}

/** Starts a resume, or says why not; a risky one waits for `confirmed`. The task runs on: `done` settles when it ends. */
export async function startResume(host: ResumeHost, taskId: string, options: { confirmed?: boolean } = {}): Promise<ResumeStatus> {
  const { api, state, skills, slot } = host
  // Checked before the first await, so Stop during the checks below cancels the resume.
  if (slot.busy) return { status: 'refused', message: BUSY }
  let checked: { checkpoint: Checkpoint; preview: ResumePreview; stopped: boolean }
  try {
    checked = await slot.starts(async (controller) => {
      await host.initialize()
      const checkpoint = await findCheckpoint(api, skills, taskId)
      return { checkpoint, preview: await previewResume(api, checkpoint, skills), stopped: controller.signal.aborted }
    })
  } catch (error) {
    return { status: 'refused', message: (error as Error).message }
  }
  const { checkpoint, preview, stopped } = checked
  if (stopped) {
    pushNote(state, STOPPED, taskId)
    await host.refreshResumable()
    return { status: 'stopped' }
  }
  if (host.resumable.runningElsewhere(checkpoint)) {
    return { status: 'refused', message: `"${checkpoint.title}" is still running in another tab. Stop it there; if that tab was closed, resume it again in a few seconds.` }
  }
  const skill = skills.get(checkpoint.skill)!
  const problem = checkpointProblem(checkpoint, skill)
  if (problem) return { status: 'refused', message: problem }
  if (preview.risk === 'high' && !options.confirmed) return { status: 'needs-confirmation', preview }
  if (skill.needsModel && !host.status.ready) {
    host.showSetup()
    await host.refreshResumable()
    return { status: 'needs-model' }
  }
  pushNote(state, `Resuming **${preview.title}** at “${preview.pendingSteps[0] ?? 'the last step'}”.`, taskId)
  return { status: 'started', preview, done: slot.run(skill, checkpoint.inputs as unknown as TaskInputs, checkpoint) }
}
