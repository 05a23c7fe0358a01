import type { Checkpoint } from '../../plugin/protocol'
import type { MetaBlogApi } from '../api/metablog-api'
import { isRecord } from '../is-record'
import type { ResumableTask, Skill, TaskInputs, TaskRecord } from './types'

export interface ResumePreview {
  taskId: string
  title: string
  skill: string
  finishedSteps: string[]
  pendingSteps: string[]
  risk: 'low' | 'high'
  reasons: string[]
  /** The pages whose hashes were checked: a change to one of them can change the risk. */
  paths: string[]
}

/** What `runtime.resume` came to. */
export type ResumeStatus =
  | { status: 'started'; preview: ResumePreview; done: Promise<TaskRecord> }
  | { status: 'needs-confirmation'; preview: ResumePreview }
  /** The setup card is showing: the task needs a model. */
  | { status: 'needs-model' }
  /** Stop was pressed while the resume was being checked. */
  | { status: 'stopped' }
  | { status: 'refused'; message: string }

/**
 * Why a checkpoint cannot be resumed by this skill: saved by another version of its steps, or with
 * inputs that are not a task's (a hand-edited or foreign file). Undefined when it can.
 */
export function checkpointProblem(checkpoint: Checkpoint, skill: Skill): string | undefined {
  if ((checkpoint.skillVersion ?? 1) !== (skill.version ?? 1)) {
    return `"${checkpoint.title}" was saved by another version of the ${skill.name} skill, so its saved steps may not fit. Discard it and ask again.`
  }
  const inputs = checkpoint.inputs
  const valid =
    typeof inputs.text === 'string' &&
    typeof inputs.intent === 'string' &&
    skill.intents.includes(inputs.intent) &&
    isRecord(inputs.params) &&
    (inputs.currentFile === undefined || typeof inputs.currentFile === 'string') &&
    (inputs.selectedText === undefined || typeof inputs.selectedText === 'string')
  return valid ? undefined : `"${checkpoint.title}" has a saved request that ${skill.name} cannot read. Discard it and ask again.`
}

export class ResumeRefusedError extends Error {
  constructor(readonly preview: ResumePreview) {
    super(`Resuming "${preview.title}" is risky: ${preview.reasons.join('; ')}. Confirm to resume anyway.`)
  }
}

export async function findCheckpoint(api: MetaBlogApi, skills: ReadonlyMap<string, Skill>, taskId: string): Promise<Checkpoint> {
  const { checkpoints } = await api.listCheckpoints()
  const checkpoint = checkpoints.find((candidate) => candidate.taskId === taskId)
  if (!checkpoint || !skills.has(checkpoint.skill)) throw new Error(`There is no resumable task ${taskId}.`)
  return checkpoint
}

/** A checkpoint as the resume banner lists it. */
export function resumableTask({ taskId, skill, title, steps, totalSteps, updatedAt, records }: Checkpoint): ResumableTask {
  return { taskId, skill, title, finishedSteps: steps.length, totalSteps, updatedAt, ...(records?.length ? { savedResults: records.length } : {}) }
}

/**
 * The pages a pending step would change: the ones the task read (their hashes are in the checkpoint)
 * and did not create. Before it read any, the page it was asked about.
 */
function targetPages(checkpoint: Checkpoint, inputs: TaskInputs): string[] {
  const read = Object.keys(checkpoint.expectedHashes).filter((path) => !checkpoint.createdPaths.includes(path))
  if (read.length > 0) return read
  const { path, pageHint } = inputs.params ?? {}
  const asked = path ?? (pageHint ? `the page that matches “${pageHint}”` : inputs.currentFile)
  return asked && !checkpoint.createdPaths.includes(asked) ? [asked] : []
}

/**
 * What a resume would do, like a careful operator checks before restarting a job: the risk is
 * high when a page changed since the checkpoint, or a pending step would replace a page the task
 * did not create.
 */
export async function previewResume(api: MetaBlogApi, checkpoint: Checkpoint, skills: ReadonlyMap<string, Skill>): Promise<ResumePreview> {
  const skill = skills.get(checkpoint.skill)
  if (!skill) throw new Error(`No skill "${checkpoint.skill}" is registered to resume ${checkpoint.taskId}.`)
  const done = new Set(checkpoint.steps.map((step) => step.id))
  const reasons: string[] = []
  for (const [path, expected] of Object.entries(checkpoint.expectedHashes)) {
    const hash = await api.readHash(path)
    if (hash === null) reasons.push(`${path} was deleted since the task stopped`)
    else if (hash !== expected && hash !== checkpoint.pendingHashes?.[path]) reasons.push(`${path} changed since the task stopped`)
  }
  const inputs = checkpoint.inputs as unknown as TaskInputs
  const pending = skill.steps.filter((step) => !done.has(step.id))
  if (pending.some((step) => (typeof step.writesExistingPage === 'function' ? step.writesExistingPage(inputs) : step.writesExistingPage))) {
    const pages = targetPages(checkpoint, inputs)
    const verb = inputs.intent === 'delete_article' ? 'delete' : 'replace'
    if (pages.length > 0) reasons.push(`it will ${verb} ${pages.join(', ')}, which this task did not create`)
  }
  return {
    taskId: checkpoint.taskId,
    title: checkpoint.title,
    skill: checkpoint.skill,
    finishedSteps: skill.steps.filter((step) => done.has(step.id)).map((step) => step.title),
    pendingSteps: pending.map((step) => step.title),
    risk: reasons.length > 0 ? 'high' : 'low',
    reasons,
    paths: Object.keys(checkpoint.expectedHashes),
  }
}
