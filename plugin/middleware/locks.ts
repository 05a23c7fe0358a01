import type { LockResponse, ReleaseLocksResponse } from '../protocol.js'
import { checkTaskId } from '../../server/checkpoint-store.js'
import type { LockManager } from '../../server/locks.js'
import { resolvePagePath } from '../../server/safe-path.js'
import { createRoute, queryParam, stringField } from './api-handler.js'

/** POST /locks takes or renews a task's lock on a page; DELETE /locks?taskId= releases all of a task's locks. */
export function locksMiddleware(locks: LockManager, sourceDir: string) {
  return createRoute(/^\/locks$/, {
    async POST(request) {
      const { relative } = await resolvePagePath(sourceDir, stringField(request.body, 'path'))
      const taskId = checkTaskId(stringField(request.body, 'taskId'))
      return { body: locks.acquire(relative, taskId) satisfies LockResponse }
    },
    async DELETE(_request, url) {
      const taskId = checkTaskId(queryParam(url, 'taskId'))
      return { body: { released: locks.releaseTask(taskId) } satisfies ReleaseLocksResponse }
    },
  })
}
