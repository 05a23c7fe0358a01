import { describe, expect, it } from 'vitest'
import { chooseFolder, cleanFolder, requestLanguage, slugForTitle } from '../../../../client/skills/post-place'

const pages = ['index.md', 'posts/a.md', 'notes/b.md', 'zh/index.md', 'zh/knowledge-graph-backlinks.md'].map((path) => ({ path }))

describe('where a new post goes', () => {
  it('reads the request’s language from its script', () => {
    expect(requestLanguage('写一篇关于缓存的文章')).toBe('zh')
    expect(requestLanguage('キャッシュについて')).toBe('ja')
    expect(requestLanguage('캐시')).toBe('ko')
    expect(requestLanguage('offline first apps')).toBe('en')
  })

  it('files a Chinese request under the blog’s zh folder, and an English one under posts/', () => {
    expect(chooseFolder(pages, 'zh')).toBe('zh')
    expect(chooseFolder([...pages.filter((page) => !page.path.startsWith('zh/')), { path: 'zh-CN/a.md' }], 'zh')).toBe('zh-CN')
    expect(chooseFolder(pages, 'en')).toBe('posts')
    // No folder for the language: the default, not a new one.
    expect(chooseFolder(pages, 'ja')).toBe('posts')
  })

  it('follows a folder the author named, over the language', () => {
    expect(chooseFolder(pages, 'zh', 'notes')).toBe('notes')
    expect(chooseFolder(pages, 'en', 'notes/')).toBe('notes')
    expect(chooseFolder(pages, 'en', 'guides/web')).toBe('guides/web')
  })

  it('refuses a folder name that is not one clean relative folder', () => {
    expect(cleanFolder('../secret')).toBeUndefined()
    expect(cleanFolder('.vitepress')).toBeUndefined()
    expect(cleanFolder('a//b')).toBeUndefined()
    expect(cleanFolder('/notes/')).toBe('notes')
  })
})

describe('slugForTitle', () => {
  it('spells a Chinese title in pinyin without tones, Latin words kept', async () => {
    expect(await slugForTitle('缓存详解')).toBe('huan-cun-xiang-jie')
    expect(await slugForTitle('HTTP 缓存与 ETag')).toBe('http-huan-cun-yu-etag')
    expect(await slugForTitle('女性')).toBe('nv-xing')
  })

  it('slugs an English title and dates a title with nothing to spell', async () => {
    expect(await slugForTitle('Offline-First Apps: A Guide')).toBe('offline-first-apps-a-guide')
    expect(await slugForTitle('🚀🚀', new Date('2026-03-01T10:00:00Z'))).toMatch(/^post-2026-03-01-[0-9a-z]{4}$/)
  })
})
