import { describe, expect, it } from 'vitest'
import { renderHunk } from '../../../../client/components/diff/diff-html'
import { diffTokens } from '../../../../client/components/diff/diff-tokens'
import { splitBlocks, tokenChanges, wordDiff, type Hunk, type Piece } from '../../../../client/components/word-diff'

const changes = (pieces: Piece[]) => pieces.filter((piece) => piece.kind === 'change').map((piece) => piece.kind === 'change' && [piece.removed, piece.added])
const hunks = (before: string, after: string) => wordDiff(before, after).rows.flatMap((row) => (row.kind === 'hunk' ? [row.hunk] : []))

describe('diffTokens', () => {
  it('keeps hyphenated words, contractions and versions whole, and links and code as one unit', () => {
    expect(diffTokens("Don't call write-file-atomic v1.2 twice.")).toEqual(["Don't", ' ', 'call', ' ', 'write-file-atomic', ' ', 'v1.2', ' ', 'twice', '.'])
    expect(diffTokens('See [[posts/a|the post]], [docs](https://x.y/z) and `fs.rename()`.')).toEqual(['See', ' ', '[[posts/a|the post]]', ',', ' ', '[docs](https://x.y/z)', ' ', 'and', ' ', '`fs.rename()`', '.'])
  })

  it('splits CJK text into words and keeps Latin words next to it apart', () => {
    const tokens = diffTokens('我们用Node写一篇关于缓存的文章。')
    expect(tokens.join('')).toBe('我们用Node写一篇关于缓存的文章。')
    expect(tokens).toContain('Node')
    expect(tokens).toContain('文章')
    expect(tokens).toContain('。')
  })
})

describe('tokenChanges', () => {
  it('shows a changed run as its old words once, then its new words once', () => {
    expect(changes(tokenChanges('the quick brown animal jumps over it', 'a slow red animal leaps over it'))).toEqual([
      ['the quick brown', 'a slow red'],
      ['jumps', 'leaps'],
    ])
  })

  it('reads a rewrite as the old sentence then the new one, not cut at each short word both share', () => {
    const before = 'An ETag is a short opaque string that a server attaches to a representation.'
    const after = 'ETags fingerprint a version.'
    expect(changes(tokenChanges(before, after))).toEqual([['An ETag is a short opaque string that a server attaches to a representation', 'ETags fingerprint a version']])
  })

  it('changes a hyphenated word as a whole', () => {
    expect(changes(tokenChanges('Use write-file-atomic here.', 'Use write-file-atomic-sync here.'))).toEqual([['write-file-atomic', 'write-file-atomic-sync']])
  })

  it('changes CJK text word by word', () => {
    expect(changes(tokenChanges('我们写一篇关于缓存的文章', '我们写一篇关于索引的文章'))).toEqual([['缓存', '索引']])
  })

  it('knows a change of markup only: a mention that became a link reads the same', () => {
    const [change] = tokenChanges('about atomic file writes here', 'about [[posts/atomic-file-writes|atomic file writes]] here').filter((piece) => piece.kind === 'change')
    expect(change).toMatchObject({ kind: 'change', restyled: true })
  })
})

describe('wordDiff', () => {
  const page = (body: string) => `---\ntitle: "Caching"\ntags: [http]\n---\n\n# Caching\n\n${body}\n\n## More\n\nOne paragraph.\n\nAnother paragraph.\n`

  it('shows only the changed paragraphs, counts the unchanged ones, and hides the same front matter', () => {
    const diff = wordDiff(page('We cache with ETags.'), page('We cache with [[posts/understanding-etags|ETags]].'))
    expect(diff.frontMatterHidden).toBe(true)
    expect(diff.rows.map((row) => row.kind)).toEqual(['unchanged', 'hunk', 'unchanged'])
    expect(diff.rows[0]).toEqual({ kind: 'unchanged', blocks: 1 })
    expect(diff.rows[2]).toEqual({ kind: 'unchanged', blocks: 3 })
    expect(JSON.stringify(diff.rows)).not.toContain('title:')
    // A link over the same words is a change of format, not words removed and added.
    expect(diff).toMatchObject({ added: 0, removed: 0, restyled: 1 })
  })

  it('shows a changed front matter as source', () => {
    const [front] = hunks('---\ndescription: "Old"\n---\n\nText.\n', '---\ndescription: "New words"\n---\n\nText.\n')
    expect(front!.source).toBe(true)
    expect(changes(front!.pieces)).toEqual([['Old', 'New words']])
  })

  it('keeps a fenced code block whole, with its blank lines, and shows it as source', () => {
    expect(splitBlocks('Intro.\n\n```ts\nconst a = 1\n\nconst b = 2\n```\n\nOutro.')).toEqual(['Intro.', '```ts\nconst a = 1\n\nconst b = 2\n```', 'Outro.'])
    const [code] = hunks('```ts\nconst a = 1\n```', '```ts\nconst a = 2\n```')
    expect(code!.source).toBe(true)
  })

  it('folds long unchanged text inside a paragraph, and shows it all on request', () => {
    const long = 'Lorem ipsum dolor sit amet. '.repeat(20)
    const folded = wordDiff(`${long}old ${long}`, `${long}new ${long}`)
    expect(folded.folded).toBe(true)
    expect(JSON.stringify(folded.rows)).toContain('"gap"')
    expect(JSON.stringify(wordDiff(`${long}old ${long}`, `${long}new ${long}`, { fold: false }).rows)).not.toContain('"gap"')
  })

  it('counts words added and removed', () => {
    expect(wordDiff('one two three', 'one four five six three')).toMatchObject({ added: 3, removed: 1 })
  })
})

describe('renderHunk', () => {
  const render = (before: string, after: string) => renderHunk((hunks(before, after)[0] as Hunk).pieces)

  it('renders the Markdown, with the old words struck and the new ones marked inside it', () => {
    const html = render('It is **very fast** and `safe`.', 'It is **quite fast** and `safe`.')
    expect(html).toBe('<p>It is <strong><del>very</del><ins>quite</ins> fast</strong> and <code>safe</code>.</p>\n')
  })

  it('keeps tags nested when a change spans formatting', () => {
    const html = render('Keep **bold words** here.', 'Keep plain words here.')
    expect(html).toContain('<del>')
    for (const tag of ['del', 'ins', 'strong']) expect(html.split(`<${tag}>`).length).toBe(html.split(`</${tag}>`).length)
    expect(html).not.toContain('**')
  })

  it('shows a new wiki-link as a link over the same words, not as a deletion', () => {
    const html = render('We cache with ETags today.', 'We cache with [[posts/understanding-etags|ETags]] today.')
    expect(html).toBe('<p>We cache with <ins class="restyled" title="Same words, new formatting"><span class="wiki-link">ETags</span></ins> today.</p>\n')
  })

  it("drops the renderer's own mark characters from the page's text, so they never become tags", () => {
    const html = render('Plain \uE000text\uE003 here.', 'Plain \uE002new\uE001 text here.')
    expect(html).toBe('<p>Plain <ins>new </ins>text here.</p>\n')
  })

  it('stays fast on a page full of unclosed brackets and backticks', () => {
    const hostile = '[[a [x `` y &#'.repeat(20_000)
    const started = performance.now()
    const diff = wordDiff(hostile, `${hostile} end`)
    expect(diff.added).toBe(1)
    expect(performance.now() - started).toBeLessThan(3000)
  })

  it('keeps list items whole when items are added', () => {
    const html = render('- one\n- two', '- one\n- two\n- three')
    expect(html).toContain('<li><ins>three</ins></li>')
  })
})
