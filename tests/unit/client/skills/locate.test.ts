import { describe, expect, it } from 'vitest'
import { locateSelection } from '../../../../client/skills/locate'

const slice = (source: string, selection: string) => {
  const found = locateSelection(source, selection)
  if ('problem' in found) throw new Error(`expected a match, got ${found.problem}`)
  return source.slice(found.start, found.end)
}

describe('locateSelection', () => {
  it('finds an exact selection, ignoring the white space around it', () => {
    const source = '# Title\n\nThe quick brown fox.\n'
    expect(locateSelection(source, '  quick brown \n')).toEqual({ start: source.indexOf('quick'), end: source.indexOf('quick') + 'quick brown'.length })
  })

  it('tolerates white space the page folded: line breaks and repeated spaces', () => {
    const source = 'A paragraph that\nwraps   across lines.\n'
    expect(slice(source, 'that wraps across')).toBe('that\nwraps   across')
  })

  it('tolerates markup the rendered page hides', () => {
    expect(slice('Call `save()` first.', 'save()')).toBe('save()')
    expect(slice('It is *very* fast.', 'very')).toBe('very')
    expect(slice('A *very* fast one.', 'A very fast')).toBe('A *very* fast')
  })

  it('keeps marks balanced when the selection starts or ends inside emphasis', () => {
    // Replacing an unbalanced span would leave a stray "**" in the page.
    expect(slice('We use the **atomic write** pattern.', 'atomic write pattern')).toBe('**atomic write** pattern')
    expect(slice('Then **bold words**.', 'bold words.')).toBe('**bold words**.')
    expect(slice('Mix **bold** and *soft* marks.', 'bold and soft marks')).toBe('**bold** and *soft* marks')
  })

  it('drops link targets, so linked text is found', () => {
    expect(slice('Read [the guide](/guide/) today.', 'Read the guide today')).toBe('Read [the guide](/guide/) today')
  })

  it('reports a selection found more than once as ambiguous', () => {
    expect(locateSelection('one two one two', 'one')).toEqual({ problem: 'ambiguous' })
    expect(locateSelection('a **b** c and a *b* c', 'a b c')).toEqual({ problem: 'ambiguous' })
  })

  it('reports a missing or empty selection', () => {
    expect(locateSelection('Some text.', 'other text')).toEqual({ problem: 'missing' })
    expect(locateSelection('Some text.', '   ')).toEqual({ problem: 'missing' })
  })
})
