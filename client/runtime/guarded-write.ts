// The page runs the server's content guard itself before a write, so the text it sends (and the hash
// it notes for a resume) is already what the server stores; a refusal stops here, with nothing sent.
import { guardContent } from '../../server/content-guard/index.js'
import { SkillError } from '../api/errors'
import type { MetaBlogApi } from '../api/metablog-api'

/** `content` as the server's guard would store it; throws ERR_UNSAFE_CONTENT when it would refuse it. */
export async function guardedContent(api: MetaBlogApi, path: string, content: string, expectedHash: string | null, signal?: AbortSignal): Promise<string> {
  // Judged whole first: text that needs nothing as a new page needs nothing as an update either.
  let verdict = guardContent(null, content)
  if (verdict.ok && verdict.neutralized.length === 0) return content
  if (expectedHash !== null) {
    const current = await api.readFile(path, { signal })
    // Changed meanwhile: the server answers ERR_STALE, which the caller already handles.
    if (current.hash !== expectedHash) return content
    verdict = guardContent(current.content, content)
  }
  if (!verdict.ok) throw new SkillError('ERR_UNSAFE_CONTENT', `${path} was not written. ${verdict.message}`)
  return verdict.content
}
