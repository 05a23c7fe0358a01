import { describe, expect, it } from 'vitest'
import { plainInline, proseBlocks, splitSentences, termsOf } from '../../../../client/skills/prose'

describe('proseBlocks', () => {
  it('returns paragraphs with their section, leaving out front matter, headings, code, tables and HTML', () => {
    const page = [
      '---',
      'title: x',
      '---',
      'Intro paragraph.',
      '# One',
      'First line',
      'second line.',
      '',
      '```js',
      'code()',
      '',
      'more()',
      '```',
      '| a | b |',
      '<div>html</div>',
      '::: tip',
      'Inside the container.',
      ':::',
      '## Two',
      '- item one',
      '- item two',
    ].join('\n')
    expect(proseBlocks(page)).toEqual([
      { markdown: 'Intro paragraph.', section: 0 },
      { markdown: 'First line\nsecond line.', section: 1 },
      { markdown: 'Inside the container.', section: 1 },
      { markdown: '- item one\n- item two', section: 2 },
    ])
  })

  it('treats an unclosed fence as code to the end', () => {
    expect(proseBlocks('Text.\n\n```\nnever closed\n\nstill code\n')).toEqual([{ markdown: 'Text.', section: 0 }])
  })
})

describe('plainInline', () => {
  it('keeps what a reader sees', () => {
    expect(plainInline('> A **bold** [link](/x), [[posts/a|a label]], [[posts/b]], `code` and ~~old~~ <b>tags</b>.')).toBe(
      'A bold link, a label, posts/b, code and old tags.',
    )
    expect(plainInline('- [x] done item\n2. numbered')).toBe('done item numbered')
  })

  it('leaves underscores inside words alone', () => {
    expect(plainInline('call snake_case_name and _this_')).toBe('call snake_case_name and this')
  })
})

describe('splitSentences', () => {
  it('splits after full stops followed by a space, and after Chinese stops at once', () => {
    expect(splitSentences('One. Two? Three! Version 1.2 stays.')).toEqual(['One.', 'Two?', 'Three!', 'Version 1.2 stays.'])
    expect(splitSentences('第一句。第二句！「第三句。」第四句')).toEqual(['第一句。', '第二句！', '「第三句。」', '第四句'])
  })

  it('does not split after common abbreviations', () => {
    expect(splitSentences('Use a cache, e.g. a Map. Then stop.')).toEqual(['Use a cache, e.g. a Map.', 'Then stop.'])
  })
})

describe('termsOf', () => {
  it('lower-cases Latin words without stop words and pairs CJK characters', () => {
    expect(termsOf('The Cache of Vue')).toEqual(['cache', 'vue'])
    expect(termsOf('缓存ABC')).toEqual(['abc', '缓存'])
  })
})
