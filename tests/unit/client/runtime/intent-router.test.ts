import { afterEach, describe, expect, it, vi } from 'vitest'
import {
  CONFIDENCE_FLOOR,
  IntentRouter,
  LOW_CONFIDENCE,
  shouldAskUser,
  validateModelAnswer,
} from '../../../../client/runtime/intent-router'
import type { IntentParams, IntentSource, RouteContext } from '../../../../client/runtime/intent-router'
import { closestCommand } from '../../../../client/runtime/intent-commands'
import { Vocabulary } from '../../../../client/runtime/vocabulary'
import { builtinSkills } from '../../../../client/skills'

const page: RouteContext = { currentFile: 'posts/current.md' }
const selection: RouteContext = { currentFile: 'posts/current.md', selectedText: 'Some selected sentence.' }
const nowhere: RouteContext = {}

type Row = [text: string, context: RouteContext, intent: string, params: IntentParams, source: IntentSource]

const ROWS: Row[] = [
  // slash commands
  ['/write Rust ownership', nowhere, 'write_article', { topic: 'Rust ownership' }, 'command'],
  ['/write a short post about Rust ownership in a casual tone', nowhere, 'write_article', { topic: 'Rust ownership', length: 'short', style: 'casual' }, 'command'],
  ['/edit make the intro punchier', page, 'edit_content', { path: 'posts/current.md', instruction: 'make the intro punchier' }, 'command'],
  ['/edit posts/other.md: fix typos', page, 'edit_content', { path: 'posts/other.md', instruction: 'fix typos' }, 'command'],
  ['/summarize', page, 'summarize', { path: 'posts/current.md' }, 'command'],
  ['/summarize posts/guide/intro.md', page, 'summarize', { path: 'posts/guide/intro.md' }, 'command'],
  ['/research vector databases', nowhere, 'research', { query: 'vector databases' }, 'command'],
  ['/graph', nowhere, 'update_graph', {}, 'command'],
  ['/explain', selection, 'explain_code', { path: 'posts/current.md' }, 'command'],
  ['/ask what is a monad?', nowhere, 'answer_question', { query: 'monad' }, 'command'],
  ['/help', nowhere, 'help', {}, 'command'],
  ['/HELP', nowhere, 'help', {}, 'command'],
  ['/frobnicate now', nowhere, 'help', { unknownCommand: 'frobnicate' }, 'command'],
  ['／write 咖啡', nowhere, 'write_article', { topic: '咖啡' }, 'command'],
  // write_article, English
  ['write a post about Rust ownership', nowhere, 'write_article', { topic: 'Rust ownership' }, 'pattern'],
  ['Write a short, casual blog post about TypeScript generics', nowhere, 'write_article', { topic: 'TypeScript generics', length: 'short', style: 'casual' }, 'pattern'],
  ['please write an article on vector databases in a formal tone', nowhere, 'write_article', { topic: 'vector databases', style: 'formal' }, 'pattern'],
  ['write a 500-word post about CSS grid', nowhere, 'write_article', { topic: 'CSS grid', wordCount: 500, length: 'short' }, 'pattern'],
  ['draft a detailed article about the long tail of search, around 2000 words', nowhere, 'write_article', { topic: 'the long tail of search', wordCount: 2000, length: 'long' }, 'pattern'],
  ['write about my trip to Kyoto', nowhere, 'write_article', { topic: 'my trip to Kyoto' }, 'pattern'],
  ['write a post about technical debt', nowhere, 'write_article', { topic: 'technical debt' }, 'pattern'],
  ['write a post about caching, keep it short', nowhere, 'write_article', { topic: 'caching', length: 'short' }, 'pattern'],
  // write_article, Chinese
  ['写一篇关于Rust所有权的文章', nowhere, 'write_article', { topic: 'Rust所有权' }, 'pattern'],
  ['写一篇800字的关于Vue响应式原理的文章', nowhere, 'write_article', { topic: 'Vue响应式原理', wordCount: 800, length: 'medium' }, 'pattern'],
  ['帮我写一篇正式的文章，主题是微服务架构', nowhere, 'write_article', { topic: '微服务架构', style: 'formal' }, 'pattern'],
  ['用轻松的语气写一篇关于咖啡的博客', nowhere, 'write_article', { topic: '咖啡', style: 'casual' }, 'pattern'],
  ['写一篇短文介绍TypeScript', nowhere, 'write_article', { topic: 'TypeScript', length: 'short' }, 'pattern'],
  ['写一篇长沙旅游的文章', nowhere, 'write_article', { topic: '长沙旅游' }, 'pattern'],
  ['写一篇关于博客搭建的文章', nowhere, 'write_article', { topic: '博客搭建' }, 'pattern'],
  ['帮我写一篇介绍博客主题的文章', nowhere, 'write_article', { topic: '博客主题' }, 'pattern'],
  ['写一篇关于如何写博客的文章', nowhere, 'write_article', { topic: '如何写博客' }, 'pattern'],
  ['请写一篇博客：如何使用 VitePress', nowhere, 'write_article', { topic: '如何使用 VitePress' }, 'pattern'],
  ['写一篇文章，主题是：缓存', nowhere, 'write_article', { topic: '缓存' }, 'pattern'],
  ['写一篇短文介绍我的博客', nowhere, 'write_article', { topic: '我的博客', length: 'short' }, 'pattern'],
  ['写一篇文章', nowhere, 'write_article', {}, 'pattern'],
  // edit_content
  ['make this more concise', selection, 'edit_content', { path: 'posts/current.md', instruction: 'make this more concise' }, 'pattern'],
  ['改得更简洁', selection, 'edit_content', { path: 'posts/current.md', instruction: '改得更简洁' }, 'pattern'],
  ['translate this into French', selection, 'edit_content', { path: 'posts/current.md', instruction: 'translate this into French' }, 'pattern'],
  ['fix the grammar.', selection, 'edit_content', { path: 'posts/current.md', instruction: 'fix the grammar' }, 'pattern'],
  ['rewrite', selection, 'edit_content', { path: 'posts/current.md', instruction: 'rewrite' }, 'pattern'],
  ['润色一下', selection, 'edit_content', { path: 'posts/current.md', instruction: '润色一下' }, 'pattern'],
  ['把这段翻译成英文', selection, 'edit_content', { path: 'posts/current.md', instruction: '把这段翻译成英文' }, 'pattern'],
  ['remove the second paragraph', selection, 'edit_content', { path: 'posts/current.md', instruction: 'remove the second paragraph' }, 'pattern'],
  ['rewrite the intro of posts/other.md to be punchier', page, 'edit_content', { path: 'posts/other.md', instruction: 'rewrite the intro of posts/other.md to be punchier' }, 'pattern'],
  // summarize
  ['summarize this article', page, 'summarize', { path: 'posts/current.md' }, 'pattern'],
  ['总结一下这篇文章', page, 'summarize', { path: 'posts/current.md' }, 'pattern'],
  ['summarize ./posts/guide/intro.md', nowhere, 'summarize', { path: 'posts/guide/intro.md' }, 'pattern'],
  ['summarize the article about Kubernetes', nowhere, 'summarize', { pageHint: 'Kubernetes' }, 'pattern'],
  ['总结《深入理解Vue》', nowhere, 'summarize', { pageHint: '深入理解Vue' }, 'pattern'],
  ['tl;dr', page, 'summarize', { path: 'posts/current.md' }, 'pattern'],
  ["what's this article about?", page, 'summarize', { path: 'posts/current.md' }, 'pattern'],
  // research
  ['what have I written about Kubernetes?', nowhere, 'research', { query: 'Kubernetes' }, 'pattern'],
  ['have I ever written anything about Rust?', nowhere, 'research', { query: 'Rust' }, 'pattern'],
  ['find my posts about testing', nowhere, 'research', { query: 'testing' }, 'pattern'],
  ['我写过哪些关于Kubernetes的文章', nowhere, 'research', { query: 'Kubernetes' }, 'pattern'],
  ['我写过Rust吗？', nowhere, 'research', { query: 'Rust' }, 'pattern'],
  ['搜索关于缓存的文章', nowhere, 'research', { query: '缓存' }, 'pattern'],
  // delete_article
  ['delete the post posts/old.md', nowhere, 'delete_article', { path: 'posts/old.md' }, 'pattern'],
  ['delete this post', page, 'delete_article', { path: 'posts/current.md' }, 'pattern'],
  ['delete the article about graphs', nowhere, 'delete_article', { pageHint: 'graphs' }, 'pattern'],
  ['删除文章 posts/old.md', nowhere, 'delete_article', { path: 'posts/old.md' }, 'pattern'],
  ['删除这篇文章', page, 'delete_article', { path: 'posts/current.md' }, 'pattern'],
  ['删掉《旧文章》', nowhere, 'delete_article', { pageHint: '旧文章' }, 'pattern'],
  ['delete posts/old.md', nowhere, 'delete_article', { path: 'posts/old.md' }, 'pattern'],
  ['delete the post called Caching 101', nowhere, 'delete_article', { pageHint: 'Caching 101' }, 'pattern'],
  ['delete my draft "Old news"', nowhere, 'delete_article', { pageHint: 'Old news' }, 'pattern'],
  ['删除关于图谱的文章', nowhere, 'delete_article', { pageHint: '图谱' }, 'pattern'],
  ['删除名为旧闻的文章', nowhere, 'delete_article', { pageHint: '旧闻' }, 'pattern'],
  // deleting part of a page is an edit of that page, never a page delete
  ["delete the article's conclusion", page, 'edit_content', { path: 'posts/current.md', instruction: "delete the article's conclusion" }, 'pattern'],
  ['remove the page title', page, 'edit_content', { path: 'posts/current.md', instruction: 'remove the page title' }, 'pattern'],
  ['remove the post intro', page, 'edit_content', { path: 'posts/current.md', instruction: 'remove the post intro' }, 'pattern'],
  ['删除这篇文章的最后一段', page, 'edit_content', { path: 'posts/current.md', instruction: '删除这篇文章的最后一段' }, 'pattern'],
  ['删掉文章里的广告', page, 'edit_content', { path: 'posts/current.md', instruction: '删掉文章里的广告' }, 'pattern'],
  ['delete the article: posts/a.md', page, 'delete_article', { path: 'posts/a.md' }, 'pattern'],
  ['删除 posts/a.md 中的图片', page, 'edit_content', { path: 'posts/a.md', instruction: '删除 posts/a.md 中的图片' }, 'pattern'],
  // explain_code
  ['explain this code', selection, 'explain_code', { path: 'posts/current.md' }, 'pattern'],
  ['what does this function do?', selection, 'explain_code', { path: 'posts/current.md' }, 'pattern'],
  ['解释这段代码', selection, 'explain_code', { path: 'posts/current.md' }, 'pattern'],
  // update_graph
  ['update the graph', nowhere, 'update_graph', {}, 'pattern'],
  ['find unlinked mentions', nowhere, 'update_graph', {}, 'pattern'],
  ['更新知识图谱', nowhere, 'update_graph', {}, 'pattern'],
  // help
  ['help', nowhere, 'help', {}, 'pattern'],
  ['what can you do?', nowhere, 'help', {}, 'pattern'],
  ['你能做什么', nowhere, 'help', {}, 'pattern'],
]

describe('IntentRouter without a model', () => {
  it.each(ROWS)('%j %o → %s', async (text, context, intent, params, source) => {
    const parse = await new IntentRouter().route(text, context)
    expect(parse).toMatchObject({ intent, source })
    expect(parse.params).toEqual(params)
    expect(parse.confidence).toBe(source === 'command' ? 1 : parse.confidence)
    if (source === 'pattern') {
      expect(parse.confidence).toBeGreaterThanOrEqual(0.7)
      expect(parse.confidence).toBeLessThanOrEqual(0.95)
    }
  })

  it('treats "make this more concise" as a sure edit only with a selection', async () => {
    const router = new IntentRouter()
    expect(shouldAskUser(await router.route('make this more concise', selection))).toBe(false)
    expect((await router.route('make this more concise', page)).confidence).toBeLessThan(0.9)
    expect(shouldAskUser(await router.route('make this more concise', nowhere))).toBe(true)
  })

  it('gives a plain question only a low-confidence answer_question', async () => {
    const parse = await new IntentRouter().route('what is a monad?', page)
    expect(parse).toEqual({ intent: 'answer_question', confidence: LOW_CONFIDENCE, params: { query: 'what is a monad?' }, source: 'fallback' })
    expect(shouldAskUser(parse)).toBe(true)
  })

  it('does not mistake a Chinese how-to question for an edit', async () => {
    const parse = await new IntentRouter().route('如何优化Vue性能？', page)
    expect(parse.intent).toBe('answer_question')
    expect(shouldAskUser(parse)).toBe(true)
  })

  it('answers empty input with zero confidence', async () => {
    expect(await new IntentRouter().route('   ', page)).toMatchObject({ confidence: 0, source: 'fallback' })
  })
})

describe('closestCommand', () => {
  it.each([
    ['delte', 'delete'],
    ['sumarize', 'summarize'],
    ['wirte', 'write'],
    ['Grahp', 'graph'],
    ['ok', undefined],
    ['frobnicate', undefined],
  ])('%s → %s', (typo, command) => {
    expect(closestCommand(typo, new Vocabulary(builtinSkills).commandNames)).toBe(command)
  })
})

describe('shouldAskUser', () => {
  it('asks strictly below the floor', () => {
    const parse = { intent: 'help', params: {}, source: 'model' } as const
    expect(CONFIDENCE_FLOOR).toBe(0.6)
    expect(shouldAskUser({ ...parse, confidence: 0.59 })).toBe(true)
    expect(shouldAskUser({ ...parse, confidence: 0.6 })).toBe(false)
  })
})

describe('IntentRouter with a model', () => {
  afterEach(() => {
    vi.useRealTimers()
  })

  function routerWith(answer: unknown) {
    const classify = vi.fn(async (_text: string, _context: RouteContext) => answer)
    return { classify, router: new IntentRouter({ classify }) }
  }

  it('does not call the model when a command or pattern matches', async () => {
    const { classify, router } = routerWith({ intent: 'help', confidence: 1 })
    await router.route('/graph')
    await router.route('write a post about Rust')
    await router.route('make this shorter', selection)
    expect(classify).not.toHaveBeenCalled()
  })

  it('falls back to the model with the normalized text and the context', async () => {
    const { classify, router } = routerWith({ intent: 'answer_question', confidence: 0.85, params: { query: 'monads' } })
    const parse = await router.route('  what   is a monad? ', page)
    expect(classify).toHaveBeenCalledWith('what is a monad?', page)
    expect(parse).toEqual({ intent: 'answer_question', confidence: 0.85, params: { query: 'monads' }, source: 'model' })
  })

  it('accepts the answer as JSON text', async () => {
    const { router } = routerWith('{"intent":"research","confidence":0.8,"params":{"query":"caching"}}')
    expect(await router.route('anything on caching')).toMatchObject({ intent: 'research', confidence: 0.8, params: { query: 'caching' } })
  })

  it.each([
    ['null', null],
    ['a number', 42],
    ['text that is not JSON', 'I think they want to write'],
    ['an array', ['write_article']],
    ['an unknown intent', { intent: 'launch_rockets', confidence: 0.99 }],
    ['a prototype key as intent', { intent: 'constructor', confidence: 0.99 }],
    ['an intent of the wrong type', { intent: 7, confidence: 0.99 }],
  ])('turns %s into a low-confidence fallback', async (_label, answer) => {
    const { router } = routerWith(answer)
    const parse = await router.route('hmm, something odd')
    expect(parse).toEqual({ intent: 'answer_question', confidence: LOW_CONFIDENCE, params: { query: 'hmm, something odd' }, source: 'fallback' })
  })

  it.each([
    ['above 1', 1.5],
    ['below 0', -0.2],
    ['not a number', 'high'],
    ['NaN', Number.NaN],
    ['missing', undefined],
  ])('keeps a valid intent but lowers a confidence that is %s', async (_label, confidence) => {
    const { router } = routerWith({ intent: 'summarize', confidence })
    const parse = await router.route('the gist please, of the thing')
    expect(parse).toMatchObject({ intent: 'summarize', confidence: LOW_CONFIDENCE, source: 'model' })
    expect(shouldAskUser(parse)).toBe(true)
  })

  it('drops parameters of the wrong type or shape', () => {
    const parse = validateModelAnswer(
      {
        intent: 'write_article',
        confidence: 0.9,
        params: { topic: 42, style: '  casual ', length: 'huge', wordCount: -3, path: '../secrets.md', query: ['x'], extra: 'dropped' },
      },
      'text',
    )
    expect(parse?.params).toEqual({ style: 'casual' })
    expect(validateModelAnswer({ intent: 'edit_content', confidence: 0.9, params: { path: './posts/a.md', length: 'long', wordCount: 900 } }, 't')?.params).toEqual({
      path: 'posts/a.md',
      length: 'long',
      wordCount: 900,
    })
  })

  it('survives a model that throws, and does not cache the failure', async () => {
    const classify = vi.fn().mockRejectedValueOnce(new Error('upstream down')).mockResolvedValue({ intent: 'help', confidence: 0.9 })
    const router = new IntentRouter({ classify })
    expect(await router.route('what now')).toMatchObject({ source: 'fallback', confidence: LOW_CONFIDENCE })
    expect(await router.route('what now')).toMatchObject({ intent: 'help', source: 'model' })
    expect(classify).toHaveBeenCalledTimes(2)
  })

  it('answers a repeat from the cache without calling the model again', async () => {
    const { classify, router } = routerWith({ intent: 'answer_question', confidence: 0.8, params: { query: 'monads' } })
    await router.route('What is a monad?', page)
    const again = await router.route('  what is a MONAD?', page)
    expect(classify).toHaveBeenCalledTimes(1)
    expect(again).toEqual({ intent: 'answer_question', confidence: 0.8, params: { query: 'monads' }, source: 'cache' })
  })

  it('keys the cache on whether there is a selection and on the page', async () => {
    const { classify, router } = routerWith({ intent: 'edit_content', confidence: 0.8, params: { instruction: 'warmer' } })
    await router.route('warmer, please', selection)
    await router.route('warmer, please', page)
    await router.route('warmer, please', { currentFile: 'posts/elsewhere.md' })
    await router.route('warmer, please', selection)
    expect(classify).toHaveBeenCalledTimes(3)
  })

  it('forgets a cached parse after 10 minutes', async () => {
    vi.useFakeTimers()
    const { classify, router } = routerWith({ intent: 'help', confidence: 0.9 })
    await router.route('hello there')
    vi.advanceTimersByTime(10 * 60_000 - 1)
    expect((await router.route('hello there')).source).toBe('cache')
    vi.advanceTimersByTime(1)
    expect((await router.route('hello there')).source).toBe('model')
    expect(classify).toHaveBeenCalledTimes(2)
  })

  it('keeps only the 50 most recent parses', async () => {
    const { classify, router } = routerWith({ intent: 'help', confidence: 0.9 })
    for (let index = 0; index < 51; index++) await router.route(`question number ${index}`)
    expect(classify).toHaveBeenCalledTimes(51)
    expect((await router.route('question number 50')).source).toBe('cache')
    expect((await router.route('question number 1')).source).toBe('cache')
    expect((await router.route('question number 0')).source).toBe('model')
  })

  it('hands out copies, so a caller mutating a parse cannot corrupt the cache', async () => {
    const { router } = routerWith({ intent: 'research', confidence: 0.9, params: { query: 'a' } })
    const first = await router.route('look into a')
    first.params.query = 'mutated'
    expect((await router.route('look into a')).params).toEqual({ query: 'a' })
  })
})
