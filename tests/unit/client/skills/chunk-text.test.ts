import { describe, expect, it } from 'vitest'
import { chunkText } from '../../../../client/skills/chunk-text'

const paragraph = (word: string, count: number) => `${Array.from({ length: count }, (_, index) => `${word} ${index}.`).join(' ')}\n\n`

describe('chunkText', () => {
  it('returns a short text whole, and nothing for an empty one', () => {
    expect(chunkText('Short text.\n', 100)).toEqual(['Short text.\n'])
    expect(chunkText('', 100)).toEqual([])
  })

  it('keeps every part within the budget and never drops or reorders text', () => {
    const text = `# Title\n\n${paragraph('alpha', 30)}## Two\n\n${paragraph('beta', 50)}${'x'.repeat(950)}\n\n${paragraph('gamma', 10)}`
    for (const budget of [80, 200, 333, 1000]) {
      const chunks = chunkText(text, budget)
      expect(chunks.join('')).toBe(text)
      for (const chunk of chunks) expect(chunk.length).toBeLessThanOrEqual(budget)
      expect(chunks.every((chunk) => chunk.length > 0)).toBe(true)
    }
  })

  it('cuts at paragraph breaks when paragraphs fit', () => {
    const text = `${'a'.repeat(60)}\n\n${'b'.repeat(60)}\n\n${'c'.repeat(60)}\n`
    expect(chunkText(text, 130)).toEqual([`${'a'.repeat(60)}\n\n${'b'.repeat(60)}\n\n`, `${'c'.repeat(60)}\n`])
  })

  it('starts a new part at a heading once the current part is half full', () => {
    const text = `${'a'.repeat(60)}\n\n## Next\n\n${'b'.repeat(20)}\n\n${'c'.repeat(30)}\n`
    const chunks = chunkText(text, 110)
    expect(chunks[0]).toBe(`${'a'.repeat(60)}\n\n`)
    expect(chunks[1]!.startsWith('## Next')).toBe(true)
  })

  it('keeps a code fence whole, even across its blank lines', () => {
    const fence = '```js\nconst a = 1\n\n\nconst b = 2\n```\n\n'
    const text = `${'a'.repeat(50)}\n\n${fence}${'b'.repeat(50)}\n`
    const chunks = chunkText(text, fence.length + 5)
    expect(chunks).toContain(fence)
    expect(chunks.join('')).toBe(text)
  })

  it('splits an oversized paragraph by sentence, then hard, without splitting a surrogate pair', () => {
    const sentences = 'One sentence here. Another sentence there. A third one now. '.repeat(3)
    const chunks = chunkText(sentences, 45)
    expect(chunks.join('')).toBe(sentences)
    expect(chunks[0]).toBe('One sentence here. Another sentence there. ')
    const emoji = '😀'.repeat(30)
    const hard = chunkText(emoji, 7)
    expect(hard.join('')).toBe(emoji)
    for (const chunk of hard) {
      expect(chunk.length).toBeLessThanOrEqual(7)
      expect(Array.from(chunk).join('')).toBe(chunk)
      expect(/^[\uDC00-\uDFFF]|[\uD800-\uDBFF]$/.test(chunk)).toBe(false)
    }
  })

  it('splits Chinese text at sentence ends', () => {
    const text = '第一句话在这里。第二句话在那里。第三句话也在。'
    expect(chunkText(text, 10)).toEqual(['第一句话在这里。', '第二句话在那里。', '第三句话也在。'])
  })

  it('holds its promises on many generated pages', () => {
    let seed = 7
    const random = () => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648)
    const pick = <T>(items: T[]) => items[Math.floor(random() * items.length)]!
    const pieces = ['# Heading\n', '## Sub\n', '\n', '\n\n', 'Plain words here. ', 'More text!\n', '```\ncode\n\ncode\n```\n', '缓存很快。', '😀', 'x'.repeat(90), '- item\n', '\r\n']
    for (let round = 0; round < 300; round++) {
      const text = Array.from({ length: 1 + Math.floor(random() * 60) }, () => pick(pieces)).join('')
      const budget = 2 + Math.floor(random() * 150)
      const chunks = chunkText(text, budget)
      expect(chunks.join('')).toBe(text)
      for (const chunk of chunks) expect(chunk.length).toBeLessThanOrEqual(budget)
    }
  })
})
