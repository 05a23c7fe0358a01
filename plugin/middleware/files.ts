import type { IncomingMessage } from 'node:http'
import type { DeleteFileResponse, FileResponse, PagesResponse, WriteFileResponse } from '../protocol.js'
import { checkTaskId } from '../../server/checkpoint-store.js'
import { MetaBlogError } from '../../server/errors.js'
import type { FileStore, WritePrecondition } from '../../server/file-store.js'
import { resolvePagePath } from '../../server/safe-path.js'
import type { PageChangeFeed } from '../page-change-feed.js'
import { createRoute, optionalStringField, queryParam, stringField } from './api-handler.js'

const QUOTED_HASH = /^"([^"]+)"$/

function preconditionRequired(message: string): MetaBlogError {
  return new MetaBlogError('ERR_PRECONDITION_REQUIRED', message)
}

/** The contract's preconditions: `If-Match: "<hash>"` or `If-None-Match: *`; anything else is 428. */
function preconditionOf(request: IncomingMessage): WritePrecondition {
  const ifMatch = request.headers['if-match']?.trim()
  const ifNoneMatch = request.headers['if-none-match']?.trim()
  if (ifNoneMatch !== undefined && ifNoneMatch !== '*') {
    throw preconditionRequired(`If-None-Match only accepts "*" (create the page only if it does not exist), not ${JSON.stringify(ifNoneMatch.slice(0, 80))}.`)
  }
  if (ifMatch === undefined) return { ifNoneMatch: ifNoneMatch === undefined ? undefined : '*' }
  const hash = QUOTED_HASH.exec(ifMatch)?.[1]
  if (!hash) {
    throw preconditionRequired(
      `If-Match needs the quoted hash you read, such as If-Match: "<hash>" (the ETag of GET /files), not ${JSON.stringify(ifMatch.slice(0, 80))}; "*" is not accepted.`,
    )
  }
  return { ifMatch: hash, ifNoneMatch: ifNoneMatch === undefined ? undefined : '*' }
}

/** The page path, checked first, so a bad path always answers ERR_BAD_PATH whatever else is wrong. */
async function pagePathOf(store: FileStore, value: unknown): Promise<string> {
  return (await resolvePagePath(store.sourceDir, value)).relative
}

function taskIdOf(value: string | null | undefined): string | undefined {
  return value === undefined || value === null ? undefined : checkTaskId(value)
}

/** GET, PUT and DELETE /files: read and write pages with hashes, preconditions and locks. */
export function filesMiddleware(store: FileStore, feed: PageChangeFeed) {
  return createRoute(/^\/files$/, {
    async GET(_request, url) {
      const file = await store.read(queryParam(url, 'path'))
      return { body: file satisfies FileResponse, headers: { ETag: `"${file.hash}"` } }
    },
    async PUT(request) {
      const pagePath = await pagePathOf(store, (request.body as { path?: unknown } | null)?.path)
      const precondition = preconditionOf(request)
      const content = stringField(request.body, 'content')
      const taskId = taskIdOf(optionalStringField(request.body, 'taskId'))
      const result = await store.write(pagePath, content, precondition, taskId)
      // Listeners (index, events) have run when this resolves: a GET /graph right after sees the write.
      await feed.pageWritten(result.path, result.created ? 'created' : 'updated', result.content)
      const neutralized = result.neutralized.length > 0 ? { neutralized: result.neutralized } : {}
      return {
        status: result.created ? 201 : 200,
        body: { path: result.path, hash: result.hash, ...neutralized } satisfies WriteFileResponse,
        headers: { ETag: `"${result.hash}"` },
      }
    },
    async DELETE(request, url) {
      const pagePath = await pagePathOf(store, queryParam(url, 'path'))
      const precondition = preconditionOf(request)
      const taskId = taskIdOf(url.searchParams.get('taskId'))
      const result = await store.delete(pagePath, precondition, taskId)
      await feed.pageWritten(result.path, 'deleted', null)
      return { body: { path: result.path, deleted: true } satisfies DeleteFileResponse }
    },
  })
}

/** GET /pages: every page with its title, front-matter summary and hash. */
export function pagesMiddleware(store: FileStore) {
  return createRoute(/^\/pages$/, {
    async GET() {
      return { body: { pages: await store.listPages() } satisfies PagesResponse }
    },
  })
}
