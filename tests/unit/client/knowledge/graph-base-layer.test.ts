import { describe, expect, it } from 'vitest'
import { paintBase, type BaseFrame, type BaseGraph } from '../../../../client/knowledge/graph-base-layer'
import { rasterizeDiscs, rasterizeSegments } from '../../../../client/knowledge/graph-raster'

const red = 0xff0000ff
const blue = 0xffff0000
const edge = 0x73808080

// Four nodes in a row, 10 layout units apart; links a–b, b–c, c–d.
const graph: BaseGraph = { links: Uint32Array.from([0, 1, 1, 2, 2, 3]), radii: Float32Array.from([2, 2, 3, 2]) }
const frame = (colors: number[], changes: Partial<BaseFrame> = {}): BaseFrame => ({
  width: 60,
  height: 20,
  positions: Float32Array.from([0, 0, 10, 0, 20, 0, 30, 0]),
  scale: 1.5,
  offsetX: 5,
  offsetY: 10,
  colors: Uint32Array.from(colors),
  edgeColor: edge,
  thickness: 1,
  smooth: true,
  ...changes,
})

describe('paintBase', () => {
  it('writes the edges, then the nodes by colour, where the transform puts them, over a cleared buffer', () => {
    const pixels = new Uint32Array(60 * 20).fill(0x12345678)
    paintBase(pixels, graph, frame([red, blue, red, blue]))

    const expected = new Uint32Array(60 * 20)
    rasterizeSegments(expected, 60, 20, [5, 10, 20, 10, 20, 10, 35, 10, 35, 10, 50, 10], edge)
    rasterizeDiscs(expected, 60, 20, [5, 10, 3, 35, 10, 4.5], red)
    rasterizeDiscs(expected, 60, 20, [20, 10, 3, 50, 10, 3], blue)
    expect([...pixels]).toEqual([...expected])
  })

  it('leaves out raised nodes (colour 0) and the links between two of them, but not a link to a dimmed node', () => {
    const pixels = new Uint32Array(60 * 20)
    // b and c raised: the b–c link is theirs; a–b and c–d stay in the base layer.
    paintBase(pixels, graph, frame([red, 0, 0, red], { smooth: false }))
    const row = [...pixels.subarray(10 * 60, 11 * 60)]
    const between = row.slice(23, 33)
    expect(between.every((pixel) => pixel === 0)).toBe(true)
    expect(row.slice(9, 19).every((pixel) => pixel === edge)).toBe(true)
    expect(row.slice(38, 47).every((pixel) => pixel === edge)).toBe(true)
    expect(row[5]).toBe(red)
    expect(row[50]).toBe(red)
    expect(row[20]).toBe(edge)
  })
})
