import type { Checkpoint } from '../../plugin/protocol'
import type { MetaBlogApi } from '../api/metablog-api'
import { RUNNING_ELSEWHERE_MS, savedRecently } from './checkpoint-saver'
import type { Logger } from './logger'
import { resumableTask } from './resume'
import type { ChatState, ResumableTask } from './types'

export interface ResumableTasksOptions {
  api: MetaBlogApi
  state: ChatState
  logger: Logger
  tabId: string
  /** Whether this page runs or ran the task (so it cannot be running in another tab). */
  ranHere: (taskId: string) => boolean
  /** The task this page is running now, which is not offered for resuming. */
  activeTaskId: () => string | undefined
}

/** The interrupted tasks the author may resume, leaving out those another tab is still running. */
export class ResumableTasks {
  /** Looks again once a task that seemed to run in another tab can no longer be. */
  private recheck: ReturnType<typeof setTimeout> | undefined

  constructor(private readonly options: ResumableTasksOptions) {}

  async refresh(): Promise<Checkpoint[]> {
    const { api, state, logger } = this.options
    try {
      const { checkpoints } = await api.listCheckpoints()
      const now = Date.now()
      const elsewhere = checkpoints.filter((checkpoint) => this.runningElsewhere(checkpoint, now))
      const active = this.options.activeTaskId()
      const resumable = checkpoints.filter((checkpoint) => checkpoint.taskId !== active && !elsewhere.includes(checkpoint))
      state.setResumable(collapseTasks(resumable))
      // A task cut off by a closed tab looks alive for a few seconds: look again once it cannot be.
      clearTimeout(this.recheck)
      if (elsewhere.length > 0) {
        const wait = Math.min(RUNNING_ELSEWHERE_MS, ...elsewhere.map((checkpoint) => checkpoint.updatedAt + RUNNING_ELSEWHERE_MS - now))
        this.recheck = setTimeout(() => void this.refresh(), wait)
      }
      return resumable
    } catch (error) {
      logger.log('agent.error', { where: 'checkpoints', message: (error as Error).message }, 'warn')
      return []
    }
  }

  /** Probably running in another tab: its heartbeat is recent and neither this tab nor this page ran it. */
  runningElsewhere(checkpoint: Checkpoint, now = Date.now()): boolean {
    if (checkpoint.owner === this.options.tabId || this.options.ranHere(checkpoint.taskId)) return false
    return savedRecently(checkpoint, now)
  }
}

/** The page a checkpoint is about: the one it was asked about, else the first it read and did not create. */
export function checkpointPage(checkpoint: Checkpoint): string | undefined {
  const inputs = checkpoint.inputs as { currentFile?: unknown; params?: { path?: unknown } }
  const asked = inputs.params?.path ?? inputs.currentFile
  if (typeof asked === 'string' && asked !== '') return asked
  return Object.keys(checkpoint.expectedHashes).find((path) => !checkpoint.createdPaths.includes(path))
}

/**
 * One entry per skill and page, the newest run of each: each closed tab with a pending change leaves its own
 * checkpoint, and the author only needs the latest. Tasks about no page keep one entry per title.
 */
export function collapseTasks(checkpoints: readonly Checkpoint[]): ResumableTask[] {
  const newest = new Map<string, { checkpoint: Checkpoint; path?: string; superseded: string[] }>()
  for (const checkpoint of [...checkpoints].sort((a, b) => b.updatedAt - a.updatedAt)) {
    const path = checkpointPage(checkpoint)
    const key = `${checkpoint.skill}\n${path ?? `title:${checkpoint.title}`}`
    const kept = newest.get(key)
    if (kept) kept.superseded.push(checkpoint.taskId)
    else newest.set(key, { checkpoint, path, superseded: [] })
  }
  // In the order the server lists them, like the banner always showed them.
  const kept = [...newest.values()].sort((a, b) => checkpoints.indexOf(a.checkpoint) - checkpoints.indexOf(b.checkpoint))
  return kept.map(({ checkpoint, path, superseded }) => ({
    ...resumableTask(checkpoint),
    ...(path ? { path } : {}),
    ...(superseded.length ? { superseded } : {}),
  }))
}
