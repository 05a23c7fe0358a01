import { routeOf } from '../../server/knowledge/routes'

/**
 * A Markdown link to a page's route. Brackets in the title are escaped and parentheses in the route
 * encoded (routeOf encodes spaces already), so the link stays one link.
 */
export function pageLink(title: string, path: string): string {
  const label = title.replace(/[[\]\\]/g, '\\$&')
  const route = routeOf(path).replace(/[()]/g, (character) => (character === '(' ? '%28' : '%29'))
  return `[${label}](${route})`
}
