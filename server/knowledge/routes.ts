export interface RouteOptions {
  /** The site's `base`, such as '/blog/'. Default '/'. */
  base?: string
  /** VitePress `cleanUrls`: '/posts/foo' instead of '/posts/foo.html'. Default false, like VitePress. */
  cleanUrls?: boolean
}

export function normalizeBase(base = '/'): string {
  let normalized = base.startsWith('/') ? base : `/${base}`
  if (!normalized.endsWith('/')) normalized += '/'
  return normalized
}

// Characters a raw href cannot carry; everything else (CJK included) stays readable, as VitePress keeps it.
const UNSAFE_IN_HREF = /[\s"'<>`%?#]/g

/** The site route of a page: 'posts/foo.md' → '/posts/foo', 'posts/index.md' → '/posts/', with the base. */
export function pageRoute(pagePath: string, options: RouteOptions = {}): string {
  const base = normalizeBase(options.base)
  const withoutExtension = pagePath.replace(/\.md$/, '')
  let route: string
  if (withoutExtension === 'index') route = ''
  else if (withoutExtension.endsWith('/index')) route = withoutExtension.slice(0, -'index'.length)
  else route = options.cleanUrls ? withoutExtension : `${withoutExtension}.html`
  return base + route.replace(UNSAFE_IN_HREF, (character) => encodeURIComponent(character))
}

/**
 * The route the page's router goes to for a page path, without the base: `posts/a.md` → `/posts/a`,
 * `posts/index.md` → `/posts/`, `notes/C#.md` → `/notes/C%23` (the router decodes it). Here rather than
 * beside the skills' Markdown helpers: the theme's backlinks import it, and a module that imports
 * slugify would put slugify in every page's theme code.
 */
export function routeOf(path: string): string {
  return pageRoute(path, { cleanUrls: true })
}
