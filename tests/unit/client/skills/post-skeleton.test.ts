import { describe, expect, it } from 'vitest'
import { enforceSkeleton, outlineSections, sameHeading, withTitle } from '../../../../client/skills/post-skeleton'

const OUTLINE = '# Offline First Apps\n\n## Why offline first\nUsers lose connectivity.\n## Storing data locally\nIndexedDB and caches.\n## Syncing changes\nConflict resolution and queues.\n'
const TITLE = 'Offline First Apps'

const headings = (page: string) => page.split('\n').filter((line) => /^#{1,6} /.test(line))

describe('post skeleton', () => {
  it('reads the outline’s sections with their notes', () => {
    expect(outlineSections(OUTLINE)).toEqual([
      { heading: 'Why offline first', note: 'Users lose connectivity.' },
      { heading: 'Storing data locally', note: 'IndexedDB and caches.' },
      { heading: 'Syncing changes', note: 'Conflict resolution and queues.' },
    ])
  })

  it('turns a wall of text into the outline’s sections, each before the paragraph its text starts at', () => {
    const wall = [
      'Users lose connectivity all the time, on trains and in lifts.',
      'So an app should work without a network.',
      'IndexedDB keeps data locally in the browser, and the Cache API keeps responses.',
      'When the network is back, changes must sync. A queue and a conflict resolution rule do it.',
      'In short: design for offline.',
    ].join('\n\n')
    const page = enforceSkeleton(wall, OUTLINE, TITLE)
    expect(headings(page)).toEqual(['# Offline First Apps', '## Why offline first', '## Storing data locally', '## Syncing changes'])
    expect(page).toContain('## Storing data locally\n\nIndexedDB keeps data locally')
    expect(page).toContain('## Syncing changes\n\nWhen the network is back')
    // Every paragraph is still there, in order.
    expect(page.replace(/^#.*\n\n/gm, '')).toBe(wall)
  })

  it('keeps the headings the model wrote (reworded too) and inserts only the missing ones, never twice', () => {
    const body = '# offline first apps\n\nAn intro.\n\n## Why Offline-First?\n\nMore on why.\n\nIndexedDB keeps data locally.\n\n## 3. Syncing changes\n\nQueues.\n'
    const page = enforceSkeleton(body, OUTLINE, TITLE)
    expect(headings(page)).toEqual(['# Offline First Apps', '## Why Offline-First?', '## Storing data locally', '## 3. Syncing changes'])
    expect(page).toContain('# Offline First Apps\n\nAn intro.\n\n## Why Offline-First?\n\nMore on why.\n\n## Storing data locally\n\nIndexedDB')
  })

  it('adds none of the outline’s sections to a stretch the model gave sections of its own', () => {
    const body = '## Introduction\n\nUsers lose connectivity.\n\n## Local data\n\nIndexedDB.\n\n## Syncing changes\n\nQueues.'
    expect(headings(enforceSkeleton(body, OUTLINE, TITLE))).toEqual(['# Offline First Apps', '## Introduction', '## Local data', '## Syncing changes'])
  })

  it('never puts a heading inside a code fence or between the items of one list', () => {
    const body = 'Users lose connectivity.\n\n```js\nconst a = 1\n\n# not a heading\n\nIndexedDB\n```\n\n- one\n\n- IndexedDB and caches\n\nQueues and conflict resolution.'
    const page = enforceSkeleton(body, OUTLINE, TITLE)
    expect(page).toContain('```js\nconst a = 1\n\n# not a heading\n\nIndexedDB\n```')
    expect(page).toContain('- one\n\n- IndexedDB and caches')
    expect(headings(page)).toContain('## Syncing changes')
  })

  it('adds no empty section when the model wrote fewer paragraphs than sections', () => {
    expect(enforceSkeleton('Only one paragraph.', OUTLINE, TITLE)).toBe('# Offline First Apps\n\n## Why offline first\n\nOnly one paragraph.')
  })

  it('places Chinese sections by their words', () => {
    const outline = '# 缓存详解\n\n## 什么是缓存\n缓存的定义\n## 浏览器缓存\nHTTP 缓存头\n## 流式输出中的缓存\n'
    const page = enforceSkeleton('缓存是把数据放在更快的地方。\n\n浏览器会根据 HTTP 缓存头决定是否复用响应。\n\n流式输出时，缓存要小心处理。', outline, '缓存详解')
    expect(page).toBe('# 缓存详解\n\n## 什么是缓存\n\n缓存是把数据放在更快的地方。\n\n## 浏览器缓存\n\n浏览器会根据 HTTP 缓存头决定是否复用响应。\n\n## 流式输出中的缓存\n\n流式输出时，缓存要小心处理。')
  })

  it('gives the page one H1, the outline’s title: the model’s own replaced, later ones made sections', () => {
    expect(withTitle('Text.', 'T')).toBe('# T\n\nText.')
    expect(withTitle('# t\n\nText.\n\n# Part two\n\nMore.', 'T')).toBe('# T\n\nText.\n\n## Part two\n\nMore.')
  })

  it('knows a heading from its rewording, not from another section', () => {
    expect(sameHeading('2. Why Offline-First?', 'Why offline first')).toBe(true)
    expect(sameHeading('Syncing', 'Syncing changes')).toBe(true)
    expect(sameHeading('Storing data locally', 'Syncing changes')).toBe(false)
  })
})
