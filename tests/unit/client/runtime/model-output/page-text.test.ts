import { describe, expect, it } from 'vitest'
import { cleanPageText, titleOf } from '../../../../../client/runtime/model-output/index.js'

describe('cleanPageText', () => {
  it('drops a preamble and a sign-off around the post', () => {
    const answer = "Sure! Here's the post you asked for:\n\n# ETags\n\nAn ETag is a fingerprint.\n\n---\n\nLet me know if you'd like any changes!"
    expect(cleanPageText(answer)).toBe('# ETags\n\nAn ETag is a fingerprint.')
  })

  it('unwraps a post fenced as markdown, keeping its own code fences', () => {
    const answer = 'Here is the draft:\n\n```markdown\n# ETags\n\n```js\nfetch(url)\n```\n\nDone.\n```\n\nI hope this helps!'
    expect(cleanPageText(answer)).toBe('# ETags\n\n```js\nfetch(url)\n```\n\nDone.')
  })

  it('removes front matter fenced as yaml at the top', () => {
    expect(cleanPageText('```yaml\n---\ntitle: ETags\ntags: [http]\n---\n```\n\n# ETags\n\nText.')).toBe('# ETags\n\nText.')
  })

  it('turns **Title:** forms into a heading', () => {
    expect(cleanPageText('**Title:** Understanding ETags\n\nText.')).toBe('# Understanding ETags\n\nText.')
    expect(cleanPageText('# Title: Understanding ETags\n\nText.')).toBe('# Understanding ETags\n\nText.')
    expect(titleOf('**Title: "Caching at the edge"**\n\n## Why')).toBe('Caching at the edge')
  })

  it('trims Chinese preambles and sign-offs', () => {
    expect(cleanPageText('好的，以下是文章大纲：\n\n# 缓存\n\n## 为什么\n\n希望对你有帮助！')).toBe('# 缓存\n\n## 为什么')
  })

  it('keeps a post whose first sentence merely starts like chatter when it is a heading or long prose', () => {
    const post = '# Sure-footed deploys\n\nHere is a long paragraph about deploys that is part of the post itself and goes on well past the length that a one-line preamble would ever have, because it is real content written by the model for the reader of the blog and nothing else.'
    expect(cleanPageText(post)).toBe(post)
  })

  it('is idempotent', () => {
    const answer = "Certainly! Below is the outline:\n\n**Title:** ETags\n\n## One\n\nFeel free to ask for more."
    expect(cleanPageText(cleanPageText(answer))).toBe(cleanPageText(answer))
  })
})
