import { describe, expect, it } from 'vitest'
import { placeLabels, type LabelBox } from '../../../../client/knowledge/graph-draw'
import { groupOf, legendOf, OTHER_GROUP } from '../../../../client/knowledge/graph-palette'

const box = (left: number, top: number, width = 100, height = 19): LabelBox => ({ left, top, right: left + width, bottom: top + height })

describe('placeLabels', () => {
  it('keeps the earlier (most-linked) label where two would overlap, and draws labels that do not', () => {
    const placed = placeLabels(
      [
        { item: 'hub', box: box(100, 100), forced: false },
        { item: 'overlaps hub', box: box(150, 110), forced: false },
        { item: 'below', box: box(150, 120), forced: false },
        { item: 'beside', box: box(201, 100), forced: false },
      ],
      800,
      600,
    ).map((label) => label.item)
    expect(placed).toEqual(['hub', 'below', 'beside'])
  })

  it('always names a forced label (hovered or found), and skips labels off the canvas', () => {
    const placed = placeLabels(
      [
        { item: 'hub', box: box(100, 100), forced: false },
        { item: 'hovered', box: box(120, 105), forced: true },
        { item: 'off to the right', box: box(900, 100), forced: false },
        { item: 'above', box: box(10, -40), forced: false },
      ],
      800,
      600,
    ).map((label) => label.item)
    expect(placed).toEqual(['hub', 'hovered'])
  })

  it('skips a label that would cover a node, unless forced', () => {
    const node = box(180, 95, 10, 10)
    const placed = placeLabels(
      [
        { item: 'across a node', box: box(100, 100), forced: false },
        { item: 'clear of it', box: box(100, 200), forced: false },
        { item: 'hovered', box: box(100, 90), forced: true },
      ],
      800,
      600,
      [node],
    ).map((label) => label.item)
    expect(placed).toEqual(['clear of it', 'hovered'])
  })

  it('never leaves two unforced labels overlapping, on a crowded random canvas', () => {
    let seed = 7
    const random = () => ((seed = (seed * 16807) % 2147483647) / 2147483647)
    const candidates = Array.from({ length: 500 }, (_, index) => ({ item: index, box: box(random() * 800, random() * 600, 40 + random() * 120), forced: false }))
    const placed = placeLabels(candidates, 800, 600)
    expect(placed.length).toBeGreaterThan(20)
    for (const [index, a] of placed.entries()) {
      for (const b of placed.slice(index + 1)) expect(a.box.left < b.box.right && b.box.left < a.box.right && a.box.top < b.box.bottom && b.box.top < a.box.bottom).toBe(false)
    }
  })
})

describe('graph colours', () => {
  const nodes = [
    { path: 'posts/a.md', tags: ['http', 'cache'] },
    { path: 'posts/b.md', tags: ['http'] },
    { path: 'notes/c.md', tags: [] },
    { path: 'index.md', tags: ['home'] },
    { path: 'zh/d.md', tags: ['中文'] },
  ]

  it('groups by top folder or by first tag', () => {
    expect(nodes.map((node) => groupOf(node, 'folder'))).toEqual(['posts', 'posts', 'notes', 'top level', 'zh'])
    expect(nodes.map((node) => groupOf(node, 'tag'))).toEqual(['http', 'http', 'untagged', 'home', '中文'])
  })

  it('lists the biggest groups first, folding the rest into "other" past the palette', () => {
    expect(legendOf(nodes, 'folder', 10)).toEqual([
      { group: 'posts', count: 2 },
      { group: 'notes', count: 1 },
      { group: 'top level', count: 1 },
      { group: 'zh', count: 1 },
    ])
    expect(legendOf(nodes, 'folder', 3)).toEqual([
      { group: 'posts', count: 2 },
      { group: 'notes', count: 1 },
      { group: OTHER_GROUP, count: 2 },
    ])
  })
})
