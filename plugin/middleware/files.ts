import type { IncomingMessage } from 'node:http'
import type { FileResponse, WriteFileResponse } from '../protocol.js'
import { MetaBlogError } from '../../server/errors.js'
import type { FileStore, WritePrecondition } from '../../server/file-store.js'
import type { PageChangeFeed } from '../page-change-feed.js'
import { createRoute, optionalStringField, queryParam, stringField } from './api-handler.js'

function unquote(tag: string): string {
  return tag.trim().replace(/^W\//, '').replace(/^"(.*)"$/, '$1')
}

export function preconditionOf(request: IncomingMessage): WritePrecondition {
  const ifMatch = request.headers['if-match']
  const ifNoneMatch = request.headers['if-none-match']
  if (ifNoneMatch !== undefined && ifNoneMatch.trim() !== '*') {
    throw new MetaBlogError('ERR_BAD_REQUEST', 'If-None-Match only accepts "*" (create the page only if it does not exist).')
  }
  return {
    ifMatch: ifMatch === undefined ? undefined : unquote(ifMatch),
    ifNoneMatch: ifNoneMatch === undefined ? undefined : '*',
  }
}

/** GET, PUT and DELETE /files: read and write pages with hashes, preconditions and locks. */
export function filesMiddleware(store: FileStore, feed: PageChangeFeed) {
  return createRoute(/^\/files$/, {
    async GET(_request, url) {
      const file = await store.read(queryParam(url, 'path'))
      return { body: file satisfies FileResponse, headers: { ETag: `"${file.hash}"` } }
    },
    async PUT(request) {
      const content = stringField(request.body, 'content')
      const taskId = optionalStringField(request.body, 'taskId')
      const result = await store.write(request.body && (request.body as { path?: unknown }).path, content, preconditionOf(request), taskId)
      await feed.pageWritten(result.path, result.created ? 'created' : 'updated', content)
      return {
        status: result.created ? 201 : 200,
        body: { path: result.path, hash: result.hash } satisfies WriteFileResponse,
        headers: { ETag: `"${result.hash}"` },
      }
    },
    async DELETE(request, url) {
      const result = await store.delete(queryParam(url, 'path'), preconditionOf(request), url.searchParams.get('taskId') ?? undefined)
      await feed.pageWritten(result.path, 'deleted', null)
      return { body: { path: result.path, deleted: true } }
    },
  })
}

/** GET /pages: every page with its title, front-matter summary and hash. */
export function pagesMiddleware(store: FileStore) {
  return createRoute(/^\/pages$/, {
    async GET() {
      return { body: { pages: await store.listPages() } }
    },
  })
}
