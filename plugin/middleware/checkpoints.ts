import type { CheckpointsResponse } from '../protocol.js'
import type { CheckpointStore } from '../../server/checkpoint-store.js'
import { createRoute } from './api-handler.js'

/** GET /checkpoints lists resumable tasks; PUT, POST and DELETE /checkpoints/:taskId save one whole, append to it and drop it. */
export function checkpointsMiddleware(checkpoints: CheckpointStore) {
  const list = createRoute(/^\/checkpoints$/, {
    async GET() {
      return { body: { checkpoints: await checkpoints.list() } satisfies CheckpointsResponse }
    },
  })
  const one = createRoute(/^\/checkpoints\/([^/]+)$/, {
    async PUT(request, _url, [taskId]) {
      const saved = await checkpoints.save(taskId!, request.body)
      return { body: { taskId: saved.taskId, updatedAt: saved.updatedAt } }
    },
    async POST(request, _url, [taskId]) {
      return { body: await checkpoints.append(taskId!, request.body) }
    },
    async DELETE(_request, _url, [taskId]) {
      return { body: { taskId, deleted: await checkpoints.delete(taskId!) } }
    },
  })
  return [list, one]
}
