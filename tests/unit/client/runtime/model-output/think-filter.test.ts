import { describe, expect, it } from 'vitest'
import { createThinkFilter, splitReasoning } from '../../../../../client/runtime/model-output/index.js'

function streamed(chunks: string[]) {
  const filter = createThinkFilter()
  let text = ''
  let reasoning = ''
  for (const part of [...chunks.map((chunk) => filter.push(chunk)), filter.end()]) {
    text += part.text
    reasoning += part.reasoning
  }
  return { text, reasoning }
}

describe('createThinkFilter', () => {
  it('keeps a think block out of the text, with tags split across chunks', () => {
    expect(streamed(['<thi', 'nk>Let me plan', ' this.</th', 'ink>\n\n# Title\n', 'Body <b>ok</b>.'])).toEqual({ text: '# Title\nBody <b>ok</b>.', reasoning: 'Let me plan this.' })
  })

  it('treats an unclosed block at the end as reasoning, never as page text', () => {
    expect(streamed(['<think>Still thinking about the outl', 'ine'])).toEqual({ text: '', reasoning: 'Still thinking about the outline' })
  })

  it('passes text with a lone "<" through once it cannot be a tag', () => {
    expect(streamed(['a <', ' b'])).toEqual({ text: 'a < b', reasoning: '' })
  })

  it('accepts <thinking> and upper case', () => {
    expect(streamed(['<THINKING>x</THINKING>y'])).toEqual({ text: 'y', reasoning: 'x' })
  })
})

describe('splitReasoning', () => {
  it('treats the text before a lone </think> as reasoning (the template opened the block)', () => {
    expect(splitReasoning('Okay, the user wants a post.\n</think>\n\n# Post')).toEqual({ text: '# Post', reasoning: 'Okay, the user wants a post.\n' })
  })
})
