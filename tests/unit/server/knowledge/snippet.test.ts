import { describe, expect, it } from 'vitest'
import { makeSnippet, wikiLinksAsText } from '../../../../server/knowledge/snippet.js'

describe('wikiLinksAsText', () => {
  it('shows each form of wiki-link as the text a reader sees', () => {
    expect(wikiLinksAsText('See [[posts/atomic-file-writes|atomic writes]] and [[Understanding ETags]].')).toBe('See atomic writes and Understanding ETags.')
    expect(wikiLinksAsText('Jump to [[#Parsing the stream]] or [[streaming#Backpressure]].')).toBe('Jump to Parsing the stream or streaming › Backpressure.')
    expect(wikiLinksAsText('![[notes/markdown-front-matter]] and [[zh/知识图谱|知识图谱]]')).toBe('notes/markdown-front-matter and 知识图谱')
  })

  it('leaves text without links, and half-open brackets, alone', () => {
    expect(wikiLinksAsText('no links [here] or [[ unfinished')).toBe('no links [here] or [[ unfinished')
  })
})

describe('makeSnippet', () => {
  it('never shows raw wiki-link markup, and finds terms inside link labels', () => {
    const text = `${'Filler words. '.repeat(30)}Backpressure is explained in [[posts/streaming-llm-responses|the streaming post]] with [[posts/x]].`
    const snippet = makeSnippet(text, ['streaming'])
    expect(snippet).toContain('the streaming post')
    expect(snippet).not.toMatch(/\[\[|\]\]|\|/)
  })
})
