// gray-matter and js-yaml take ~25 ms to load on a quiet machine, more than the rest of MetaBlog's
// config: they load with the first front matter that needs them, not with the dev server's start.
import { createRequire } from 'node:module'
import type matter from 'gray-matter'

const require = createRequire(import.meta.url)
let loaded: typeof matter | undefined

/** gray-matter itself, loaded on first call. */
export function grayMatter(): typeof matter {
  return (loaded ??= require('gray-matter') as typeof matter)
}
