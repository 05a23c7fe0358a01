import { routeOf } from '../../server/knowledge/routes'

const ROUTE_ESCAPES: Record<string, string> = { ' ': '%20', '(': '%28', ')': '%29' }

/**
 * A Markdown link to a page's route. Brackets in the title are escaped and spaces or parentheses in
 * the route encoded, so the link stays one link.
 */
export function pageLink(title: string, path: string): string {
  const label = title.replace(/[[\]\\]/g, '\\$&')
  const route = routeOf(path).replace(/[ ()]/g, (character) => ROUTE_ESCAPES[character] ?? character)
  return `[${label}](${route})`
}
