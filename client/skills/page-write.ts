import type { SkillContext } from '../runtime/types'
import { errorCode } from '../api/errors'

export interface CheckedWrite {
  path: string
  /** The full new page. */
  content: string
  /** The hash the task read (null: the page must not exist yet): the write happens only if the page is still that version. */
  hash: string | null
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
 * Writes a page with the hash the task read (through `writePage`, so the checkpoint notes the write
 * before it is sent). If the author changed it meanwhile, the author chooses: drop the change, or
 * re-apply it to the current text (written with the current hash).
 */
export async function writeChecked(context: SkillContext, write: CheckedWrite): Promise<CheckedWriteResult> {
  try {
    return { outcome: 'written', hash: await context.writePage(write.path, write.content, write.hash) }
  } catch (error) {
    if (errorCode(error) !== 'ERR_STALE') throw error
  }
  if ((await context.resolveConflict(write.path, write.conflict)) === 'drop') return { outcome: 'dropped' }
  const fresh = await context.api.readFile(write.path, { signal: context.signal })
  const updated = write.reapply(fresh.content)
  if (updated === null) return { outcome: 'no-longer-fits' }
  return { outcome: 'reapplied', hash: await context.writePage(write.path, updated, fresh.hash) }
}
