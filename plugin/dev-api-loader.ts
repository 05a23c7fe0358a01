// Loads the dev server's routes, stores and model gateway (plugin/dev-api.ts) on first need, not on
// the start path: the first page's HTML never waits for openai, markdown-it or the stores.
import { MetaBlogError } from '../server/errors.js'
import { sendError } from '../server/http.js'
import type { ApiMiddleware, ApiRequest, NextFunction } from './middleware/api-handler.js'
import type { ServerResponse } from 'node:http'

export interface DevApi {
  /** The routes, in order; the last one answers anything left under the prefix. */
  routes: ApiMiddleware[]
  /** Takes one event of Vite's file watcher. */
  fileEvent(event: string, file: string): void
}

/** Runs the routes in order, like connect would with each mounted under the prefix. */
function runRoutes(routes: ApiMiddleware[], request: ApiRequest, response: ServerResponse, done: NextFunction): void {
  let position = 0
  const next: NextFunction = (error) => {
    const route = routes[position++]
    if (error !== undefined || !route) return done(error)
    try {
      const pending = route(request, response, next)
      if (pending) pending.catch(next)
    } catch (error) {
      next(error)
    }
  }
  next()
}

/**
 * The API behind a loader: `middleware` goes after the gate and waits for the routes on the first
 * request; `fileEvent` takes watcher events from the start and hands them over, in order, once loaded.
 */
export function createDevApiLoader(create: () => Promise<DevApi>, logError: (message: string) => void) {
  let loading: Promise<DevApi> | null = null
  let loaded: DevApi | null = null
  let pending: [string, string][] = []
  const load = (): Promise<DevApi> =>
    (loading ??= create().then(
      (api) => {
        loaded = api
        for (const [event, file] of pending) api.fileEvent(event, file)
        pending = []
        return api
      },
      (error: Error) => {
        pending = []
        logError(`[metablog] the dev API could not load: ${error.stack ?? error.message}`)
        throw error
      },
    ))
  return {
    load,
    fileEvent(event: string, file: string): void {
      if (loaded) return loaded.fileEvent(event, file)
      // An edit made before any page asked for the API still reaches the index, once it loads.
      pending.push([event, file])
      load().catch(() => undefined)
    },
    middleware: function metablogApiMiddleware(request: ApiRequest, response: ServerResponse, next: NextFunction): void {
      if (loaded) return runRoutes(loaded.routes, request, response, next)
      load().then(
        (api) => runRoutes(api.routes, request, response, next),
        (error: Error) => sendError(response, new MetaBlogError('ERR_INTERNAL', `MetaBlog's dev API could not load: ${error.message}. See the dev server's terminal.`)),
      )
    },
  }
}
