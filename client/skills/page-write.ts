import type { SkillContext } from '../runtime/types'
import { errorCode } from './skill-error'

export interface CheckedWrite {
  path: string
  /** The full new page. */
  content: string
  /** The hash the task read: the write happens only if the page is still that version. */
  hash: string
  /** What the conflict card asks when the page changed meanwhile. */
  conflict: string
  /** The same change made to the page's current text, for a re-apply; null if it no longer fits. */
  reapply(current: string): string | null
}

export type CheckedWriteResult =
  | { outcome: 'written'; hash: string }
  | { outcome: 'reapplied'; hash: string }
  | { outcome: 'dropped' }
  | { outcome: 'no-longer-fits' }

/**
 * Writes a page with the hash the task read. If the author changed it meanwhile, the author
 * chooses: drop the change, or re-apply it to the current text (written with the current hash).
 */
export async function writeChecked(context: SkillContext, write: CheckedWrite): Promise<CheckedWriteResult> {
  const options = { signal: context.signal, taskId: context.taskId }
  try {
    const { hash } = await context.api.writeFile(write.path, write.content, write.hash, options)
    context.expectHash(write.path, hash)
    return { outcome: 'written', hash }
  } catch (error) {
    if (errorCode(error) !== 'ERR_STALE') throw error
  }
  if ((await context.resolveConflict(write.path, write.conflict)) === 'drop') return { outcome: 'dropped' }
  const fresh = await context.api.readFile(write.path, { signal: context.signal })
  const updated = write.reapply(fresh.content)
  if (updated === null) return { outcome: 'no-longer-fits' }
  const { hash } = await context.api.writeFile(write.path, updated, fresh.hash, options)
  context.expectHash(write.path, hash)
  return { outcome: 'reapplied', hash }
}
