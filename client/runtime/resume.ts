import type { Checkpoint } from '../../plugin/protocol'
import type { MetaBlogApi } from '../api/metablog-api'
import type { Skill, TaskInputs } from './types'

export interface ResumePreview {
  taskId: string
  title: string
  skill: string
  finishedSteps: string[]
  pendingSteps: string[]
  risk: 'low' | 'high'
  reasons: string[]
}

async function currentHash(api: MetaBlogApi, path: string): Promise<string | null> {
  try {
    return (await api.readFile(path)).hash
  } catch (error) {
    if ((error as { code?: string }).code === 'ERR_NOT_FOUND') return null
    throw error
  }
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
    const hash = await currentHash(api, path)
    if (hash === null) reasons.push(`${path} was deleted since the task stopped`)
    else if (hash !== expected && hash !== checkpoint.pendingHashes?.[path]) reasons.push(`${path} changed since the task stopped`)
  }
  const inputs = checkpoint.inputs as unknown as TaskInputs
  const target = inputs.params?.path ?? inputs.currentFile
  const pending = skill.steps.filter((step) => !done.has(step.id))
  if (target && !checkpoint.createdPaths.includes(target) && pending.some((step) => (typeof step.writesExistingPage === 'function' ? step.writesExistingPage(inputs) : step.writesExistingPage))) {
    reasons.push(`it will replace ${target}, which this task did not create`)
  }
  return {
    taskId: checkpoint.taskId,
    title: checkpoint.title,
    skill: checkpoint.skill,
    finishedSteps: skill.steps.filter((step) => done.has(step.id)).map((step) => step.title),
    pendingSteps: pending.map((step) => step.title),
    risk: reasons.length > 0 ? 'high' : 'low',
    reasons,
  }
}
