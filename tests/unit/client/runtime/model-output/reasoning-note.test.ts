import { describe, expect, it } from 'vitest'
import { renderMarkdown } from '../../../../../client/components/render-markdown.js'
import { foldedReasoning, withoutFoldedReasoning } from '../../../../../client/runtime/model-output/index.js'

describe('foldedReasoning', () => {
  it('renders as a closed <details>, escaped, even when the reasoning holds fences and tags', () => {
    const html = renderMarkdown(`Answer.${foldedReasoning('Maybe ```js\nalert(1)\n``` and <img src=x onerror=alert(1)>')}More.`)
    expect(html).toContain('<details class="mb-reasoning"><summary>Reasoning</summary><pre>Maybe ```js\nalert(1)\n``` and &lt;img src=x onerror=alert(1)&gt;\n</pre></details>')
    expect(html).not.toContain('<details open')
    expect(html).toContain('<p>More.</p>')
  })

  it('keeps a long reasoning short', () => {
    expect(foldedReasoning('x'.repeat(10_000)).length).toBeLessThan(4100)
  })
})

describe('withoutFoldedReasoning', () => {
  it('drops the folds and keeps everything else, a message without one exactly as it is', () => {
    expect(withoutFoldedReasoning(`Answer.${foldedReasoning('thinking with ``` inside')}`)).toBe('Answer.')
    expect(withoutFoldedReasoning(foldedReasoning('only thinking'))).toBe('')
    expect(withoutFoldedReasoning('Kept as is. ')).toBe('Kept as is. ')
    expect(withoutFoldedReasoning('```ts\nconst reasoning = 1\n```')).toBe('```ts\nconst reasoning = 1\n```')
  })
})
