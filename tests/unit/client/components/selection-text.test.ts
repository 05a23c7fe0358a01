// @vitest-environment happy-dom
import { afterEach, describe, expect, it } from 'vitest'
import { selectionText } from '../../../../client/components/selection-text'
import { locateSelection } from '../../../../client/skills/locate'

// What VitePress renders for this Markdown: a heading anchor, a code block with its language label and copy button, a tip.
const SOURCE = '## Write it\n\nIntro text.\n\n```ts\nconst a = 1\n```\n\n::: tip Careful\nAfter the code.\n:::\n'
const HTML =
  '<h2 id="write-it">Write it <a class="header-anchor" href="#write-it">\u200B</a></h2>' +
  '<p>Intro text.</p>' +
  '<div class="language-ts"><button title="Copy Code" class="copy"></button><span class="lang">ts</span><pre><code><span class="line">const a = 1</span></code></pre></div>' +
  '<div class="tip custom-block"><p class="custom-block-title">Careful</p><p>After the code.</p></div>'

function selectAll(): Selection {
  const page = document.createElement('div')
  page.className = 'vp-doc'
  page.innerHTML = HTML
  document.body.append(page)
  const range = document.createRange()
  range.selectNodeContents(page)
  const selection = window.getSelection()!
  selection.removeAllRanges()
  selection.addRange(range)
  return selection
}

afterEach(() => {
  document.body.innerHTML = ''
})

describe('selectionText', () => {
  it("leaves out the theme's labels, so a selection across a code block and a tip is found in the Markdown", () => {
    const text = selectionText(selectAll())
    expect(text).not.toMatch(/\bts\b|Careful/)
    const found = locateSelection(SOURCE, text)
    expect('problem' in found ? found : SOURCE.slice(found.start, found.end)).toBe(SOURCE.slice(3, SOURCE.indexOf('After the code.') + 'After the code.'.length))
  })

  it('is the plain selection text when no theme part is selected', () => {
    document.body.innerHTML = '<p>Only <em>words</em> here.</p>'
    const range = document.createRange()
    range.selectNodeContents(document.body.firstChild!)
    window.getSelection()!.removeAllRanges()
    window.getSelection()!.addRange(range)
    expect(selectionText(window.getSelection()!)).toBe('Only words here.')
  })
})
