import { describe, expect, it } from 'vitest'
import { clipSegment, pixelColor, rasterizeDiscs, rasterizeSegments } from '../../../../client/knowledge/graph-raster'

const lit = (pixels: Uint32Array, width: number) => [...pixels.keys()].filter((index) => pixels[index]).map((index) => [index % width, Math.floor(index / width)])

describe('clipSegment', () => {
  it('keeps a segment inside the canvas, cuts one that leaves it, and drops one wholly outside', () => {
    const out = new Float64Array(4)
    expect(clipSegment(1, 1, 5, 5, 10, 10, out)).toBe(true)
    expect([...out]).toEqual([1, 1, 5, 5])
    expect(clipSegment(-10, 5, 20, 5, 10, 10, out)).toBe(true)
    expect([...out]).toEqual([0, 5, 9, 5])
    expect(clipSegment(-10, -10, -1, -5, 10, 10, out)).toBe(false)
    expect(clipSegment(3, 20, 3, 30, 10, 10, out)).toBe(false)
  })
})

describe('rasterizeSegments', () => {
  it('lights every pixel along a horizontal, a vertical and a diagonal run, and none elsewhere', () => {
    const pixels = new Uint32Array(8 * 8)
    rasterizeSegments(pixels, 8, 8, [0, 0, 3, 0, 7, 2, 7, 4, 2, 3, 4, 5], 0xff0000ff)
    expect(lit(pixels, 8)).toEqual([[0, 0], [1, 0], [2, 0], [3, 0], [7, 2], [2, 3], [7, 3], [3, 4], [7, 4], [4, 5]])
    expect(pixels.every((pixel) => pixel === 0 || pixel === 0xff0000ff)).toBe(true)
  })

  it('draws a segment crossing the canvas only inside it, and thicker across its minor axis', () => {
    const pixels = new Uint32Array(6 * 4)
    rasterizeSegments(pixels, 6, 4, [-100, 1, 100, 1], 1, 2)
    expect(lit(pixels, 6)).toEqual([...[0, 1, 2, 3, 4, 5].map((x) => [x, 1]), ...[0, 1, 2, 3, 4, 5].map((x) => [x, 2])])
  })
})

describe('pixelColor', () => {
  it("reads the canvas's normalized colours into ImageData's little-endian RGBA word, alpha applied", () => {
    expect(pixelColor('#929295', 1)).toBe(0xff959292)
    expect(pixelColor('#929295', 0.45).toString(16)).toBe('73959292')
    expect(pixelColor('rgba(10, 20, 30, 0.5)', 0.5).toString(16)).toBe('401e140a')
  })
})

describe('rasterizeDiscs', () => {
  const alphaOf = (pixel: number) => (pixel >>> 24) / 255
  const blue = 0xffff0000

  it('fills a disc solid inside, anti-aliases its rim, and covers its area', () => {
    const pixels = new Uint32Array(20 * 20)
    rasterizeDiscs(pixels, 20, 20, [10, 10, 5], blue)
    expect(pixels[10 * 20 + 10]).toBe(blue)
    expect(pixels[10 * 20 + 6]).toBe(blue)
    expect(pixels[10 * 20 + 16]).toBe(0)
    expect(pixels[2 * 20 + 10]).toBe(0)
    const rim = [...pixels].filter((pixel) => pixel && pixel !== blue)
    expect(rim.length).toBeGreaterThan(10)
    expect(rim.every((pixel) => (pixel & 0xffffff) === 0xff0000 && alphaOf(pixel) > 0 && alphaOf(pixel) < 1)).toBe(true)
    const area = [...pixels].reduce((sum, pixel) => sum + alphaOf(pixel), 0)
    expect(area).toBeGreaterThan(Math.PI * 25 * 0.97)
    expect(area).toBeLessThan(Math.PI * 25 * 1.03)
  })

  it('writes what a pixel-by-pixel coverage gives, for discs of any size and place, partly off the canvas', () => {
    let seed = 11
    const random = () => (seed = (seed * 16807) % 2147483647) / 2147483647
    for (let round = 0; round < 40; round++) {
      const discs = [random() * 40 - 5, random() * 30 - 5, 0.3 + random() * 9]
      const opacity = round % 2 ? 1 : 0.4
      const color = ((Math.round(opacity * 255) << 24) | 0x336699) >>> 0
      const pixels = new Uint32Array(32 * 24)
      rasterizeDiscs(pixels, 32, 24, discs, color)
      const wrong: string[] = []
      for (let y = 0; y < 24; y++) {
        for (let x = 0; x < 32; x++) {
          const coverage = Math.min(1, discs[2]! + 0.5 - Math.hypot(x + 0.5 - discs[0]!, y + 0.5 - discs[1]!))
          const expected = coverage <= 0 ? 0 : Math.round(opacity * coverage * 255)
          if (Math.abs((pixels[y * 32 + x]! >>> 24) - expected) > 1) wrong.push(`disc ${discs.join(', ')}: pixel ${x}, ${y}`)
        }
      }
      expect(wrong).toEqual([])
    }
  })

  it('lays a translucent disc over what is there, as the canvas does (source over)', () => {
    const red = 0xff0000ff
    const pixels = new Uint32Array(9 * 9).fill(red)
    rasterizeDiscs(pixels, 9, 9, [4.5, 4.5, 3], 0x80ff0000)
    const centre = pixels[4 * 9 + 4]!
    expect(centre >>> 24).toBe(255)
    expect(centre & 0xff).toBeCloseTo(127, -1)
    expect((centre >>> 16) & 0xff).toBeCloseTo(128, -1)
    expect(pixels[0]).toBe(red)

    const clear = new Uint32Array(9 * 9)
    rasterizeDiscs(clear, 9, 9, [4.5, 4.5, 3], 0x80ff0000)
    expect(clear[4 * 9 + 4]).toBe(0x80ff0000)
  })
})
