import { describe, expect, it } from 'vitest'
import { backlinkLabels } from '../../../../client/knowledge/backlink-labels'
import { resolveOptions } from '../../../../plugin/options'

describe('backlink labels', () => {
  it("follow the page's language: Chinese for zh-CN, English for anything unknown", () => {
    const setting = resolveOptions().backlinks
    expect(backlinkLabels('zh-CN', setting).title).toBe('链接到此页的页面')
    expect(backlinkLabels('en-US', setting).title).toBe('Linked from')
    expect(backlinkLabels('fr', setting).title).toBe('Linked from')
  })

  it("take the author's words over ours, by exact language first, then by its first part", () => {
    const setting = resolveOptions({ backlinks: { labels: { zh: { title: '反链' }, 'zh-TW': { title: '反向連結' } } } }).backlinks
    expect(backlinkLabels('zh-CN', setting)).toMatchObject({ title: '反链', empty: '还没有其他页面链接到这里。' })
    expect(backlinkLabels('zh-TW', setting).title).toBe('反向連結')
  })

  it('are on and out of the outline by default; `false` turns them off; bad values are refused', () => {
    expect(resolveOptions().backlinks).toEqual({ enabled: true, outline: false, labels: {} })
    expect(resolveOptions({ backlinks: false }).backlinks.enabled).toBe(false)
    expect(resolveOptions({ backlinks: { outline: true } }).backlinks.outline).toBe(true)
    expect(() => resolveOptions({ backlinks: 'no' as never })).toThrow(/backlinks must be/)
  })
})
