import { describe, expect, it } from 'vitest'
import { guardContent, type Verdict } from '../../../../server/content-guard/index.js'
import { plainFenceInfo } from '../../../../server/content-guard/fence-info.js'

function stored(verdict: Verdict): string {
  if (!verdict.ok) throw new Error(`refused: ${verdict.message}`)
  return verdict.content
}

function refusal(verdict: Verdict): { line: number; construct: string; message: string } {
  if (verdict.ok) throw new Error(`stored: ${verdict.content}`)
  return verdict
}

describe('guardContent on a new page', () => {
  it('makes text inert and says what, by line', () => {
    const verdict = guardContent(null, '# Hi {{ x }}\n\n<img src=x onerror="y()">\n\n[a](javascript:y()) {onclick=y} {#keep}\n')
    expect(stored(verdict)).toBe('# Hi &#123;&#123; x }}\n\n&lt;img src=x onerror="y()">\n\n[a]\\(javascript%3Ay()) &#123;onclick=y} {#keep}\n')
    expect(verdict.ok && verdict.neutralized).toEqual([
      { line: 1, construct: 'interpolation' },
      { line: 3, construct: 'html' },
      { line: 5, construct: 'script-url' },
      { line: 5, construct: 'attributes' },
    ])
  })

  it('breaks script URLs written with entities, and leaves prose such as "data: 5" alone', () => {
    expect(stored(guardContent(null, '[a](jav&#x61;script&colon;x()) [b](D&#65;TA:text/html,x)\n'))).toBe('[a]\\(jav&#x61;script%3Ax()) [b]\\(D&#65;TA%3Atext/html,x)\n')
    expect(stored(guardContent(null, 'The data: 5 rows; javascript: a language.\n'))).toBe('The data: 5 rows; javascript: a language.\n')
    expect(stored(guardContent(null, '![i]( <data:image/png;base64,x>)\n\n[r]: vbscript:x\n'))).toBe('![i]\\( &lt;data%3Aimage/png;base64,x>)\n\n\\[r]: vbscript%3Ax\n')
  })

  it('leaves ordinary prose, code and comparisons byte for byte', () => {
    const prose = '# ETags\n\nAn ETag is a **fingerprint**; a < b.\n\n```ts {2}\nif (a < b) { run("<b>") }\n```\n\n- [[posts/etags|ETags]] and `x < y`\n'
    expect(guardContent(null, prose)).toEqual({ ok: true, content: prose, neutralized: [] })
  })

  it('reduces fence info strings to a language and VitePress flags', () => {
    expect(plainFenceInfo('js [<img src=x onerror=1>]')).toBe('js')
    expect(plainFenceInfo('ts:line-numbers=5 {1,3-5} [title]')).toBe('ts:line-numbers=5 {1,3-5}')
    expect(plainFenceInfo('js"><img/src=x>')).toBe('js')
    expect(plainFenceInfo('py:no-line-numbers')).toBe('py:no-line-numbers')
    expect(plainFenceInfo('{2} extra')).toBe('{2}')
    const verdict = guardContent(null, '```sh [a" :title="x()"]\nls\n```\n')
    expect(stored(verdict)).toBe('```sh\nls\n```\n')
  })

  it('refuses what cannot be made inert, naming the construct and the line', () => {
    expect(refusal(guardContent(null, '---js\n{}\n---\n'))).toMatchObject({ line: 1, construct: 'front-matter-engine', message: expect.stringContaining('line 1: front matter must be YAML; found `---js`') })
    expect(refusal(guardContent(null, '---\na: &x 1\nb: *x\n---\n'))).toMatchObject({ line: 2, construct: 'front-matter-yaml' })
    expect(refusal(guardContent(null, `---\nt: "${'x'.repeat(65 * 1024)}"\n---\n`))).toMatchObject({ construct: 'front-matter-size' })
    expect(refusal(guardContent(null, '# T\n\n```\n<!-- @include: ../.env -->\n```\n'))).toMatchObject({ line: 4, construct: 'include' })
    expect(refusal(guardContent(null, 'Text <!--\n@include: .env-->\n'))).toMatchObject({ line: 1, construct: 'include' })
    expect(refusal(guardContent(null, '> <<< @/../.env\n'))).toMatchObject({ line: 1, construct: 'snippet' })
    expect(refusal(guardContent(null, 'Intro\n\n```html-vue [demo]\n{{ x }}\n```\n'))).toMatchObject({ line: 3, construct: 'vue-fence' })
  })

  it('keeps YAML that only looks like anchors: quoted text, ampersands in prose', () => {
    const page = '---\ntitle: "Tom & Jerry *live*"\ndescription: A & B, with *stars*\ntags: [a, b]\n---\n\n# T\n'
    expect(stored(guardContent(null, page))).toBe(page)
  })

  it('is idempotent: what it stores passes again unchanged', () => {
    const text = '# {{ a }}\n\nUse `{{ b }}` <b>x</b> {onclick=1} [l](data:text/html,x)\n\n```js [t]\nx\n```\n\n    {{ indented }}\n'
    const once = stored(guardContent(null, text))
    expect(guardContent(null, once)).toEqual({ ok: true, content: once, neutralized: [] })
  })

  it('keeps line endings and the line count', () => {
    const text = 'a {{ x }}\r\nb\rc <i>\n'
    const result = stored(guardContent(null, text))
    expect(result).toBe('a &#123;&#123; x }}\r\nb\rc &lt;i>\n')
  })
})

describe('guardContent on an update', () => {
  const author = '# Author\n\n<div v-pre>{{ kept }}</div>\n\n<b>mine</b> {{ 1 + 1 }}\n\n```js-vue\n{{ demo }}\n```\n\nLast line.\n'

  it('judges only the changed lines: the author’s HTML, {{ }} and -vue fence stay', () => {
    const next = author.replace('Last line.', 'New <img src=x onerror=1> {{ evil }}.')
    expect(stored(guardContent(author, next))).toBe(author.replace('Last line.', 'New &lt;img src=x onerror=1> &#123;&#123; evil }}.'))
  })

  it('an unchanged page passes as it is', () => {
    expect(guardContent(author, author)).toEqual({ ok: true, content: author, neutralized: [] })
  })

  it('refuses new lines inside the author’s -vue fence', () => {
    const next = author.replace('{{ demo }}\n', '{{ demo }}\n{{ added }}\n')
    expect(refusal(guardContent(author, next))).toMatchObject({ line: 9, construct: 'vue-fence' })
  })

  it('judges a changed opening fence line, not the unchanged code inside', () => {
    const page = 'Intro\n\n```html\n<script>example()</script>\n```\n'
    const next = page.replace('```html', '```html [<img src=x onerror=1>]')
    expect(stored(guardContent(page, next))).toBe(page)
  })

  it('refuses a change that ends the author’s code block early', () => {
    const page = 'Intro\n\n```html\n<p>one</p>\n<script>example()</script>\n```\n'
    const next = page.replace('<p>one</p>', '<p>one</p>\n```')
    expect(refusal(guardContent(page, next))).toMatchObject({ line: 6, construct: 'code-exposed' })
  })

  it('refuses a change inside the author’s raw HTML block', () => {
    const page = 'Intro\n\n<script setup>\nconst a = 1\n</script>\n'
    const next = page.replace('const a = 1', 'const a = 1\nfetch("https://evil.example")')
    expect(refusal(guardContent(page, next))).toMatchObject({ line: 5, construct: 'html-block-edit' })
  })

  it('refuses an include added next to the author’s own', () => {
    const page = 'Intro\n\n<!--@include: ./part.md-->\n'
    expect(stored(guardContent(page, `${page}\nMore.\n`))).toBe(`${page}\nMore.\n`)
    expect(refusal(guardContent(page, `${page}\n<!--@include: ../.env-->\n`))).toMatchObject({ line: 5, construct: 'include' })
  })

  it('falls back to a cheap diff on a huge rewrite and still keeps the unchanged head and tail', () => {
    const head = '# Kept <b>author</b>\n'
    const middle = Array.from({ length: 6000 }, (_value, index) => `line ${index}`).join('\n')
    const next = `${head}${Array.from({ length: 6000 }, (_value, index) => `new {{ ${index} }}`).join('\n')}\nTail <i>author</i>\n`
    const result = stored(guardContent(`${head}${middle}\nTail <i>author</i>\n`, next))
    expect(result.startsWith(head)).toBe(true)
    expect(result.endsWith('\nTail <i>author</i>\n')).toBe(true)
    expect(result).not.toContain('{{ 5 }}')
  })
})

describe('guardContent on front matter', () => {
  it('refuses script URLs, head and HTML in new front-matter lines, keeps prose with colons', () => {
    expect(refusal(guardContent(null, '---\nhero:\n  actions:\n    - link: "javascript:alert(1)"\n---\n'))).toMatchObject({ line: 4, construct: 'front-matter-url' })
    expect(refusal(guardContent(null, '---\n"head": []\n---\n'))).toMatchObject({ line: 2, construct: 'front-matter-head' })
    expect(refusal(guardContent(null, '---\ntitle: "\\u003cimg src=x onerror=1>"\n---\n'))).toMatchObject({ line: 2, construct: 'front-matter-html' })
    const prose = '---\ntitle: "Working with data: a guide"\ndata: 5\ndescription: Tom & Jerry {{ inert here }}\n---\n'
    expect(stored(guardContent(null, prose))).toBe(prose)
  })

  it('refuses any new line in front matter an engine would run, even when the author wrote the engine line', () => {
    const page = '---js\n{ title: "mine" }\n---\n\n# Mine\n'
    expect(stored(guardContent(page, `${page}\nMore.\n`))).toBe(`${page}\nMore.\n`)
    expect(refusal(guardContent(page, page.replace('"mine"', 'require("fs")')))).toMatchObject({ construct: 'front-matter-engine' })
  })
})

describe('guardContent next to an author’s open tag', () => {
  it('refuses a line that would become part of a tag the author’s line left open', () => {
    const page = 'Intro <a\n\nOld.\n'
    expect(refusal(guardContent(page, 'Intro <a\nonclick="steal()">x</a>\n\nOld.\n'))).toMatchObject({ line: 2, construct: 'tag-continuation' })
    const quoted = 'See <a href="\n'
    expect(refusal(guardContent(quoted, `${quoted}javascript:steal()">x</a>\n`))).toMatchObject({ line: 2, construct: 'tag-continuation' })
  })

  it('accepts lines after closed tags, after a blank line, and lines that open nothing', () => {
    const page = 'Intro <b>bold</b> and a < b\n\nOld.\n'
    expect(stored(guardContent(page, 'Intro <b>bold</b> and a < b\nmore text\n\nOld <i>x</i>\nnext\n'))).toBe('Intro <b>bold</b> and a < b\nmore text\n\nOld &lt;i>x&lt;/i>\nnext\n')
    expect(stored(guardContent('<a title=">"\n\nOld.\n', '<a title=">"\n\nNew onclick=1\n'))).toBe('<a title=">"\n\nNew onclick=1\n')
  })
})

describe('guardContent and code spans that are not code', () => {
  it('stores the strict text when a backtick the author opened makes the model’s “code span” prose', () => {
    const page = 'Author {{ 1 + 1 }} and `foo\n\nOld.\n'
    const next = 'Author {{ 1 + 1 }} and `foo\nbar` <img src=x onerror=y()> {{ evil }} `baz`\n\nOld.\n'
    const result = stored(guardContent(page, next))
    expect(result.split('\n')[1]).toBe('bar` &lt;img src=x onerror=y()> &#123;&#123; evil }} `baz`')
    expect(guardContent(page, result)).toEqual({ ok: true, content: result, neutralized: [] })
  })
})
