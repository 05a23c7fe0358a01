import { describe, expect, it } from 'vitest'
import { applyEdits } from '../../../../client/tools/apply-edits'

const page = '# Title\n\nFirst  paragraph.\n\nSecond paragraph.\n\n```js\nconst x = 1\n```\n'

describe('applyEdits', () => {
  it('replaces exact text and keeps every other byte', () => {
    const applied = applyEdits(page, [{ oldText: 'Second paragraph.', newText: 'Second paragraph. More.' }])
    expect(applied.content).toBe(page.replace('Second paragraph.', 'Second paragraph. More.'))
    expect([applied.before, applied.after]).toEqual(['Second paragraph.', 'Second paragraph. More.'])
  })

  it('applies several edits and shows the span that covers them', () => {
    const applied = applyEdits(page, [
      { oldText: 'Second paragraph.', newText: 'Two.' },
      { oldText: 'First  paragraph.', newText: 'One.' },
    ])
    expect(applied.content).toBe('# Title\n\nOne.\n\nTwo.\n\n```js\nconst x = 1\n```\n')
    expect(applied.before).toBe('First  paragraph.\n\nSecond paragraph.')
    expect(applied.after).toBe('One.\n\nTwo.')
  })

  it('refuses text that is missing, repeated, empty or overlapping, with a code', () => {
    expect(() => applyEdits(page, [{ oldText: 'Third', newText: '' }])).toThrow(expect.objectContaining({ code: 'ERR_EDIT_NOT_FOUND' }))
    expect(() => applyEdits(page, [{ oldText: 'paragraph.', newText: '' }])).toThrow(expect.objectContaining({ code: 'ERR_EDIT_AMBIGUOUS' }))
    expect(() => applyEdits(page, [{ oldText: '', newText: 'x' }])).toThrow(expect.objectContaining({ code: 'ERR_EDIT_NOT_FOUND' }))
    expect(() =>
      applyEdits(page, [
        { oldText: 'First  paragraph.', newText: '' },
        { oldText: 'paragraph.\n\nSecond', newText: '' },
      ]),
    ).toThrow(expect.objectContaining({ code: 'ERR_EDIT_OVERLAP' }))
  })

  it('makes HTML in the new text inert and says so', () => {
    const applied = applyEdits(page, [{ oldText: 'Second paragraph.', newText: 'Second <img src=x onerror=alert(1)>.' }])
    expect(applied.content).not.toContain('<img')
    expect(applied.neutralized).toContain('html')
  })
})
