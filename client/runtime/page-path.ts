/**
 * A page path as models tend to write it ("/posts/x", "./posts/x.md", "posts/x.html") in the form
 * the file API takes ("posts/x.md"). Anything else is left for the server to judge.
 */
export function pagePath(path: string): string {
  let clean = path.trim().replace(/^\.?\/+/, '').replace(/[?#].*$/, '')
  if (clean.endsWith('.html')) clean = clean.slice(0, -'.html'.length)
  if (clean === '' || clean.endsWith('/')) clean += 'index'
  return /\.md$/i.test(clean) ? clean : `${clean}.md`
}
