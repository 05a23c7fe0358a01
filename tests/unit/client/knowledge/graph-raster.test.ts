import { describe, expect, it } from 'vitest'
import { clipSegment, pixelColor, rasterizeSegments } from '../../../../client/knowledge/graph-raster'

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
