// The write skill's post shape: skeleton, title casing, folder, slug, related links, and the post opening when done.
import { afterEach, describe, expect, it } from 'vitest'
import { setPageNavigator } from '../../../../client/runtime/page-navigation'
import { writeSkill } from '../../../../client/skills/write'
import { createBlog, runSkill, scriptedModel } from './skill-harness'

const DETAILS = '{"tags": ["offline"], "description": "Apps that work without a network."}'
const OUTLINE = '# offline first apps\n\n## Why offline first\nUsers lose connectivity.\n## Storing data locally\nIndexedDB.\n## Syncing changes\nQueues.\n'
const WALL = 'Users lose connectivity on trains.\n\nIndexedDB keeps data locally.\n\nSyncing changes needs a queue.'

const pages = {
  'posts/index.md': { title: 'Posts', content: '# Posts\n' },
  'posts/caching.md': { title: 'Caching', content: '# Caching\n' },
  'notes/index.md': { title: 'Notes', content: '# Notes\n' },
  'zh/index.md': { title: '中文', content: '# 中文\n' },
  'zh/llm-streaming-principles.md': { title: '大语言模型流式输出的原理', content: '# 大语言模型流式输出的原理\n' },
}

let removeNavigator: (() => void) | undefined
afterEach(() => removeNavigator?.())

describe('write skill: a post that looks written', () => {
  it('enforces the outline’s skeleton and cases the title when the model drops both', async () => {
    const blog = createBlog(pages)
    const run = await runSkill(writeSkill, { inputs: { text: 'write a post about offline first apps', params: { topic: 'offline first apps' } }, api: blog.api, model: scriptedModel([OUTLINE, WALL, DETAILS]) })
    expect(run.error).toBeUndefined()
    const page = blog.content('posts/offline-first-apps.md')!
    expect(page).toContain('title: "Offline First Apps"')
    expect(page).toContain('# Offline First Apps\n\n## Why offline first\n\nUsers lose connectivity on trains.\n\n## Storing data locally\n\nIndexedDB keeps data locally.\n\n## Syncing changes\n\nSyncing changes needs a queue.')
  })

  it('files a Chinese request in zh/ with a pinyin name, its title as typed, and related links found from the outline', async () => {
    const searched: string[] = []
    // The blog has nothing on "缓存" itself; a heading of the outline shares words with a Chinese post.
    const blog = createBlog(pages, {
      search: (query) => (searched.push(query), ['流式', '式输', '输出'].includes(query) ? [{ path: 'zh/llm-streaming-principles.md', title: '大语言模型流式输出的原理', score: 3, snippet: '' }] : []),
    })
    const outline = '# 缓存详解\n\n## 什么是缓存\n定义\n## 流式输出中的缓存\n'
    const body = '# 缓存详解\n\n缓存是把数据放在更快的地方。\n\n流式输出时，缓存要小心。'
    const run = await runSkill(writeSkill, { inputs: { text: '写一篇关于缓存的文章', params: { topic: '缓存' } }, api: blog.api, model: scriptedModel([outline, body, DETAILS]) })
    expect(run.error).toBeUndefined()
    expect(run.created).toEqual(['zh/huan-cun-xiang-jie.md'])
    const page = blog.content('zh/huan-cun-xiang-jie.md')!
    expect(page).toContain('title: "缓存详解"')
    expect(page).toContain('## 流式输出中的缓存\n\n流式输出时，缓存要小心。')
    expect(page).toContain('## Related posts\n\n- [[zh/llm-streaming-principles|大语言模型流式输出的原理]]\n')
    // Each word of the outline is searched on its own, Chinese as character pairs.
    expect(searched).toEqual(expect.arrayContaining(['缓存', '流式', '输出']))
  })

  it('files a Chinese request about a Latin-named topic in zh/ too', async () => {
    const blog = createBlog(pages)
    const outline = '# React Hooks 入门\n\n## 为什么需要 hooks\n'
    const run = await runSkill(writeSkill, { inputs: { text: '写一篇关于 React hooks 的文章', params: { topic: 'React hooks' } }, api: blog.api, model: scriptedModel([outline, 'Hooks 让函数组件有状态。', DETAILS]) })
    expect(run.created).toEqual(['zh/react-hooks-ru-men.md'])
  })

  it('goes in the folder the author named', async () => {
    const blog = createBlog(pages)
    const run = await runSkill(writeSkill, { inputs: { text: 'write a post about offline first apps in notes/', params: { topic: 'offline first apps', folder: 'notes' } }, api: blog.api, model: scriptedModel([OUTLINE, WALL, DETAILS]) })
    expect(run.created).toEqual(['notes/offline-first-apps.md'])
  })

  it('opens the new post when it is done', async () => {
    const blog = createBlog(pages)
    const routes: string[] = []
    removeNavigator = setPageNavigator({ currentFile: () => 'posts/index.md', go: async (route) => void routes.push(route) })
    const run = await runSkill(writeSkill, { inputs: { text: 'write about offline first apps', params: { topic: 'offline first apps' } }, api: blog.api, model: scriptedModel([OUTLINE, WALL, DETAILS]) })
    expect(run.error).toBeUndefined()
    expect(routes).toEqual(['/posts/offline-first-apps'])
  })
})
