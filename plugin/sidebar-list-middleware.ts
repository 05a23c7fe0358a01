import type { IncomingMessage, ServerResponse } from 'node:http'
import { MetaBlogError } from '../server/errors.js'
import { sendError, sendJson } from '../server/http.js'
import { folderPages, sectionKeyOf } from '../server/knowledge/sidebar-window.js'
import type { KnowledgeService } from './knowledge-service.js'
import { DEV_SIDEBAR_PATH } from './protocol.js'
import { folderEntries } from './sidebar-shipment.js'

/**
 * In dev, a folder's full list for its "More" entry (what a build ships as a JSON asset), from the live
 * sidebar. Mounted after Vite's own middleware, so its host check applies; it tells what `/@siteData` told before.
 * Asked with `Accept: application/json`: Vite's SPA fallback turns a request that accepts HTML into the index page first.
 */
export function sidebarListMiddleware(knowledge: KnowledgeService) {
  return async function metablogSidebarListMiddleware(request: IncomingMessage, response: ServerResponse, next: () => void): Promise<void> {
    const url = new URL(request.url ?? '/', 'http://localhost')
    if (url.pathname !== DEV_SIDEBAR_PATH) return next()
    try {
      await knowledge.ready
      const folder = url.searchParams.get('folder') ?? ''
      const sections = knowledge.sidebarSections ?? {}
      const key = sectionKeyOf(Object.keys(sections), `${folder}/`)
      const section = key === undefined ? undefined : sections[key]
      const pages = Array.isArray(section) ? folderPages(section, folder) : undefined
      if (!pages) throw new MetaBlogError('ERR_NOT_FOUND', `No folder "${folder}" in the generated sidebar; reload the page to get its current sidebar.`)
      sendJson(response, 200, folderEntries(pages))
    } catch (error) {
      sendError(response, error, (message) => console.error(message))
    }
  }
}
