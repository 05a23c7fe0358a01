import { describe, expect, it } from 'vitest'
import { checkArticle } from '../../../../../client/runtime/model-output/index.js'

const OUTLINE = '# ETags\n\n## What an ETag is\nA fingerprint of a version.\n## Conditional requests\nIf-Match and If-None-Match.'
const PROMPT = `Write the full post in Markdown, about 800 words. Start with "# ETags". Follow the outline.\n${OUTLINE}`

describe('checkArticle', () => {
  it('accepts a real post, short or long', () => {
    expect(checkArticle('# ETags\n\nInstall it.', OUTLINE, PROMPT)).toBeNull()
    expect(checkArticle('# ETags\n\n## What an ETag is\n\nAn ETag names a version.\n\n## Conditional requests\n\nSend If-Match.', OUTLINE, PROMPT)).toBeNull()
  })

  it('finds an empty answer, the outline back, and the prompt back', () => {
    expect(checkArticle('# ETags\n\n## What an ETag is', OUTLINE, PROMPT)).toBe('empty')
    expect(checkArticle('# ETags\n\n- What an ETag is: a fingerprint of a version\n## Conditional requests\nIf-Match and If-None-Match.\n## What an ETag is\nA fingerprint of a version.', OUTLINE, PROMPT)).toBe('outline-only')
    expect(checkArticle('Write the full post in Markdown, about 800 words. Start with "# ETags". Follow the outline.\nOutline:', OUTLINE, `${PROMPT}\nOutline:`)).toBe('prompt-echo')
  })

  it('finds a long post without the outline’s sections', () => {
    expect(checkArticle(`# ETags\n\n${'Words about caching and versions. '.repeat(50)}`, OUTLINE, PROMPT)).toBe('no-headings')
  })
})
