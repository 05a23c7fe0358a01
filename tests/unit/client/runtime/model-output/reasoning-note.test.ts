import { describe, expect, it } from 'vitest'
import { renderMarkdown } from '../../../../../client/components/render-markdown.js'
import { foldedReasoning } from '../../../../../client/runtime/model-output/index.js'

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
