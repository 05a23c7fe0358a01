import type { AppendSessionEntriesResponse, DeleteSessionResponse, SessionResponse, SessionsResponse } from '../protocol.js'
import { checkSessionEntries, checkSessionId } from '../../server/sessions/session-entry.js'
import type { SessionStore } from '../../server/sessions/session-store.js'
import { createRoute } from './api-handler.js'

/**
 * GET /sessions lists conversations; GET and DELETE /sessions/:id read and drop one;
 * POST /sessions/:id/entries appends to its log.
 */
export function sessionsMiddleware(sessions: SessionStore) {
  const list = createRoute(/^\/sessions$/, {
    async GET() {
      return { body: { sessions: await sessions.list() } satisfies SessionsResponse }
    },
  })
  const one = createRoute(/^\/sessions\/([^/]+)$/, {
    async GET(_request, _url, [id]) {
      return { body: (await sessions.read(checkSessionId(id))) satisfies SessionResponse }
    },
    async DELETE(_request, _url, [id]) {
      return { body: { id: checkSessionId(id), deleted: await sessions.delete(id!) } satisfies DeleteSessionResponse }
    },
  })
  const entries = createRoute(/^\/sessions\/([^/]+)\/entries$/, {
    async POST(request, _url, [id]) {
      checkSessionId(id)
      const checked = checkSessionEntries(request.body)
      const size = await sessions.append(id!, checked)
      return { body: { id: id!, appended: checked.length, size } satisfies AppendSessionEntriesResponse }
    },
  })
  return [list, one, entries]
}
